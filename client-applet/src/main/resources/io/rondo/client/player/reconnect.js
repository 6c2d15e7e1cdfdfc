// A stream that survives its node (docs/stream-protocol.md, Redirects; papers/004 Section 6): the
// REDIRECTs the player follows in a row, and a connection lost mid-stream (not stopped by the
// person, not ended by END) opened again after a backoff at the fragment after the playing one,
// with the gap that leaves. Pure logic: the player gives it the times (milliseconds,
// performance.now()) and does the connecting.

/** The most REDIRECTs one OPEN follows in a row, as Rondo's other clients. */
export const MAX_REDIRECTS = 3;

/** The WebSocket path of the stream of object name (without its leading '/'): /stream/NAME, each segment encoded. */
export function objectStreamPath(streamPath, name) {
  return `${streamPath}/${name.replace(/^\//, '').split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Where a lost stream starts again: the fragment after the one at the playing position, as an
 * OPEN's start (the server starts at the keyframe at or before it).
 */
export function nextFragmentNs(playingNs, fragmentDurationNs) {
  return (Math.floor(playingNs / fragmentDurationNs) + 1) * fragmentDurationNs;
}

export class Reconnector {
  #attempts;
  #backoffMs;
  #left;
  #redirects = 0;
  #lostAtMs = null;
  /** Each gap, { lengthMs, cause }, oldest first. */
  gaps = [];

  /** attempts: connections tried after each loss; backoffMs: the wait before the first, doubled for each next. */
  constructor({ attempts = 4, backoffMs = 500 } = {}) {
    this.#attempts = attempts;
    this.#backoffMs = backoffMs;
    this.#left = attempts;
  }

  /** A REDIRECT came: true to follow it, false if it is one too many in a row (the nodes send it round). */
  redirected() {
    this.#redirects++;
    return this.#redirects <= MAX_REDIRECTS;
  }

  /** An OPEN was answered (ACCEPT or REJECT): the next REDIRECT starts a new count. */
  answered() {
    this.#redirects = 0;
  }

  /** Whether a loss waits for the next DATA: the stream is being picked up again. */
  get resuming() {
    return this.#lostAtMs !== null;
  }

  /**
   * The connection was lost at nowMs (because of cause), or an attempt to open it again failed: the
   * milliseconds to wait before the next attempt, or null if none is left.
   */
  lost(nowMs, cause) {
    if (this.#lostAtMs === null) {
      this.#lostAtMs = nowMs;
      this.cause = cause;
    }
    if (this.#left === 0) {
      return null;
    }
    const attempt = this.#attempts - this.#left;
    this.#left--;
    return this.#backoffMs * 2 ** attempt;
  }

  /** Which attempt the next connection is, from 1. */
  get attempt() {
    return this.#attempts - this.#left;
  }

  get attempts() {
    return this.#attempts;
  }

  /** DATA arrived at nowMs: the gap it closes, { lengthMs, cause }, or null; the attempts are whole again. */
  data(nowMs) {
    this.#left = this.#attempts;
    if (this.#lostAtMs === null) {
      return null;
    }
    const gap = { lengthMs: nowMs - this.#lostAtMs, cause: this.cause };
    this.gaps.push(gap);
    this.#lostAtMs = null;
    return gap;
  }

  /** The person started over (retry, a new clip): no loss is pending and the attempts are whole. */
  reset() {
    this.#left = this.#attempts;
    this.#redirects = 0;
    this.#lostAtMs = null;
  }

  /** "2 (longest 1.3 s)", for the stats; "0" without gaps. */
  summary() {
    if (this.gaps.length === 0) {
      return '0';
    }
    const longest = Math.max(...this.gaps.map((g) => g.lengthMs));
    return `${this.gaps.length} (longest ${(longest / 1000).toFixed(1)} s)`;
  }
}
