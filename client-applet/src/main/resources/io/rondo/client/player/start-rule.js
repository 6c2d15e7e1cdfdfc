// When the player may start playing, and start again after a seek, a stall or a pause. The server
// sends one fragment a round, each due by a deadline on the stream's clock (the clock starts at
// ACCEPT; the first fragment is due one round after it, each later one two rounds after the round
// that reads it). Playing waits until the position is far enough behind the newest fragment's
// deadline that every later fragment, due a round after the one before and shown a round after
// it, is due before it is shown: then playback never stalls while the server keeps its promise,
// and a stall it does see is the server's (or the network's) fault.
//
// Nothing here reads a clock: the caller reads the stream's clock once and passes it in.

/** Near the clip's end, what is held may fall this short of its duration and still be all of it. */
const END_SLACK_S = 0.2;

/**
 * The least held ahead before playing: one fragment (a second before the first ACCEPT tells its
 * length), or what is left of the clip.
 */
export function startThresholdS(fragmentDurationNs, remainingS) {
  const fragmentS = fragmentDurationNs ? fragmentDurationNs / 1e9 : 1;
  return Math.min(fragmentS, Math.max(0, remainingS - END_SLACK_S));
}

/**
 * True once playing from positionNs cannot overtake the deadlines: the newest fragment, shown
 * (its presentation time - the position) from now, is due no later than that. Later fragments
 * are each due one round after it, as they are shown one round after it. No newest fragment, or
 * no stream clock yet, and nothing is promised.
 */
export function deadlinesAllowStart(newest, streamClockNs, positionNs) {
  if (!newest || streamClockNs === null) {
    return false;
  }
  return streamClockNs + (newest.presentationNs - positionNs) >= newest.deadlineNs;
}

/**
 * After RESUME the next fragment is read in the next round and due two rounds after that: as if
 * it had arrived with that deadline, at the end of what is held, playing waits until what is held
 * covers the wait.
 */
export function newestAfterResume(streamClockNs, fragmentDurationNs, heldUntilS) {
  return { deadlineNs: streamClockNs + 3 * fragmentDurationNs, presentationNs: heldUntilS * 1e9 };
}

/**
 * The start rule: the whole rest of the clip is held, or enough is held ahead of the position and
 * the deadlines allow it.
 */
export function mayStart({ allBuffered, aheadS, positionS, durationS, fragmentDurationNs, newest, streamClockNs }) {
  return allBuffered || aheadS >= startThresholdS(fragmentDurationNs, durationS - positionS)
    && deadlinesAllowStart(newest, streamClockNs, positionS * 1e9);
}
