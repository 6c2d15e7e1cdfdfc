// What the stats panel counts over the page's life, across connections: bytes and fragments
// received, glitches (fragments that came after their deadline), stalls, the initial latency, and
// the receive rate over the last few seconds. Times are passed in (milliseconds, performance.now()).

/** The window the receive rate is measured over. */
export const RATE_WINDOW_MS = 4000;

export class PlaybackStats {
  bytes = 0;
  fragments = 0;
  glitches = 0;
  stalls = 0;
  /** Ms from OPEN to ACCEPT, to the first DATA and to the first picture (null until it shows); null before DATA. */
  latency = null;
  #arrivals = [];

  /** A DATA fragment of bytes kept at atMs; the first of the page's also fixes the initial latency. */
  received(atMs, bytes, { openSentAtMs, acceptAtMs }) {
    this.bytes += bytes;
    this.fragments++;
    this.#arrivals.push({ atMs, bytes });
    if (this.latency === null) {
      this.latency = { firstData: atMs - openSentAtMs, accept: acceptAtMs - openSentAtMs, picture: null };
    }
  }

  /** The first picture showed at atMs; true if it is the first since the first DATA. */
  pictureShown(atMs, openSentAtMs) {
    if (!this.latency || this.latency.picture !== null) {
      return false;
    }
    this.latency.picture = atMs - openSentAtMs;
    return true;
  }

  /** Bits a second received over the RATE_WINDOW_MS up to nowMs; older arrivals are forgotten. */
  receiveBitsPerSecond(nowMs) {
    const since = nowMs - RATE_WINDOW_MS;
    this.#arrivals = this.#arrivals.filter((a) => a.atMs >= since);
    const bytes = this.#arrivals.reduce((sum, a) => sum + a.bytes, 0);
    return (bytes * 8) / (RATE_WINDOW_MS / 1000);
  }
}
