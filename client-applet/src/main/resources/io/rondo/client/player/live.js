// A live object: a recording being made, which grows by a fragment a round (docs/stream-protocol.md,
// Watching live). ACCEPT says whether the object is live, LIVE frames how far the recording has got
// (the live edge) and when it ended; the seek bar spans the recorded window, from 0 to the edge, and
// the player shows how far playback is behind the edge. Nothing here reads a clock or the page.

/** Playback this close to the live edge, in fragments, is at the edge: no delay is shown. */
const EDGE_FRAGMENTS = 3;

/**
 * Where the first stream of the page starts: ?behind=SECONDS asks for that far behind the live edge;
 * an object the library says is being recorded starts at the edge (its newest keyframe); any other
 * at its start.
 */
export function firstStart(params, info) {
  const behind = params.get('behind');
  if (behind !== null && Number(behind) >= 0) {
    return { ns: Math.round(Number(behind) * 1e9), fromLive: true };
  }
  return { ns: 0, fromLive: info.live === true };
}

export class LiveWindow {
  /** The object is being recorded now: ACCEPT said so and no LIVE ENDED has come since. */
  live = false;
  recordedNs = 0;
  durableNs = 0;
  /** A jump to the live edge waits for its first fragment, to move the playing position there. */
  landing = false;
  /** Where to move the playing position once the media there is held, seconds; null when not moving. */
  landAtS = null;

  /** A stream was accepted: live or not, as ACCEPT says. */
  accepted(accept) {
    this.live = accept.live === true;
  }

  /** A LIVE frame: the edge moves on; with ENDED the object is an ordinary one from now on. */
  update(frame) {
    this.recordedNs = Math.max(this.recordedNs, frame.recordedNs);
    this.durableNs = frame.durableNs;
    if (frame.ended) {
      this.live = false;
    }
  }

  /** The seek bar's end: the live edge while live, else the object's duration. */
  windowS(durationS) {
    return this.live ? Math.max(this.recordedNs / 1e9, 0) : durationS;
  }

  /** How far the playing position is behind the live edge, in seconds; 0 when not live. */
  delayS(positionS) {
    return this.live ? Math.max(0, this.recordedNs / 1e9 - positionS) : 0;
  }

  /** True while playing within a few fragments of the edge (or the object is not live). */
  atEdge(positionS, fragmentS) {
    return this.delayS(positionS) <= EDGE_FRAGMENTS * fragmentS;
  }

  /** A seek to this position is a jump to the live edge: it lies within the newest fragment. */
  isEdge(seconds, fragmentS) {
    return this.live && seconds >= this.recordedNs / 1e9 - fragmentS;
  }

  /** A fragment kept: the first after a jump to live is where playback goes. */
  kept(presentationNs) {
    if (this.landing) {
      this.landing = false;
      this.landAtS = presentationNs / 1e9;
    }
  }

  /**
   * Where to set the playing position now, given what is held ([{ start, end }] seconds), or null:
   * once a range reaches past where to land, its start or the landing point, whichever is later.
   */
  landOn(ranges) {
    if (this.landAtS === null) {
      return null;
    }
    const range = ranges.find((r) => r.end > this.landAtS);
    if (!range) {
      return null;
    }
    const at = Math.max(range.start, this.landAtS);
    this.landAtS = null;
    return at;
  }

  /** What the view shows: null when not live, else whether at the edge and the delay. */
  view(positionS, fragmentS) {
    if (!this.live) {
      return null;
    }
    return { atEdge: this.atEdge(positionS, fragmentS), delayS: this.delayS(positionS) };
  }
}
