// What the player holds: the time ranges the browser has buffered, the fragments appended to them
// and their bytes (REPORT tells the server both), and what to drop so a long clip fits the
// browser's quota. Ranges are plain [{ start, end }] in seconds, as rangesOf reads a TimeRanges.

/** Seconds kept behind the playing position; older media is dropped. */
export const KEEP_BEHIND_S = 20;
/** Seconds kept behind it when the browser's quota is already full. */
export const URGENT_KEEP_BEHIND_S = 2;
/** A range that starts this soon after the position still holds it (the decoder skips the gap). */
const GAP_S = 0.3;
/** A seek is served from what is held only if at least this much is held after its target. */
const SEEK_HOLD_S = 1;
/** A range that ends this close to the clip's end reaches it (the last frame's end may fall short). */
const REACHES_END_S = 0.3;

/** A TimeRanges (video.buffered, SourceBuffer.buffered) as [{ start, end }], seconds. */
export function rangesOf(timeRanges) {
  return Array.from({ length: timeRanges.length }, (_, i) => ({ start: timeRanges.start(i), end: timeRanges.end(i) }));
}

/** The buffer level: seconds held ahead of positionS, in the range that holds it. */
export function bufferedAheadS(ranges, positionS) {
  const range = ranges.find((r) => r.start <= positionS + GAP_S && positionS < r.end);
  return range ? range.end - positionS : 0;
}

/**
 * True if a seek to seconds can play from what is held, without asking the server: a range holds
 * it and a second after it, or, once the whole rest of the clip has come (allBuffered), a range
 * that reaches the clip's end holds it.
 */
export function holds(ranges, seconds, { allBuffered, durationS }) {
  return ranges.some((r) => r.start <= seconds
    && (seconds + SEEK_HOLD_S <= r.end || allBuffered && r.end >= durationS - REACHES_END_S && seconds < r.end));
}

/**
 * Where to drop held media up to (from the start), so that KEEP_BEHIND_S (URGENT_KEEP_BEHIND_S
 * when the quota is full) stay behind the position; null while there is not a second to drop.
 */
export function dropUntilS(ranges, positionS, urgent) {
  if (ranges.length === 0) {
    return null;
  }
  const until = positionS - (urgent ? URGENT_KEEP_BEHIND_S : KEEP_BEHIND_S);
  return until > ranges[0].start + 1 ? until : null;
}

/** The fragments appended, each by its presentation time and size: REPORT's bufferedBytes. */
export class HeldFragments {
  #fragments = [];

  add(startNs, bytes) {
    this.#fragments.push({ startNs, bytes });
  }

  /** Forgets the fragments that start before fromNs, as their media is dropped. */
  dropBefore(fromNs) {
    this.#fragments = this.#fragments.filter((f) => f.startNs >= fromNs);
  }

  /** Bytes held of the fragment playing at positionNs (fragmentDurationNs long) and all after it. */
  bytesFrom(positionNs, fragmentDurationNs) {
    const fromNs = positionNs - fragmentDurationNs;
    return this.#fragments.filter((f) => f.startNs >= fromNs).reduce((sum, f) => sum + f.bytes, 0);
  }
}
