// The browser's own HLS, where it has no Media Source Extensions of either kind (an iPhone before
// iOS 17.1): the video element plays the clip's playlist (/player/info's hls) itself, and the server
// admits the playlist's session as it admits a stream's OPEN (docs/hls.md). The element fetches
// and buffers on its own, so the controls act on it directly and the stats show only what it
// reports: the position, the duration, what it buffered and its stalls; no frames, no REPORT, no
// deadlines to count glitches by. The controls call the same methods as on the Player.

import { bufferedAheadS, rangesOf } from './buffer.js';
import { askToPlay } from './controls.js';
import { PlaybackStats } from './stats.js';

export class NativeHls {
  state = 'loading';
  wantPlay = true;
  #startedAtMs = 0;
  #pictureShown = false;

  /**
   * Plays the playlist at hls (an address) in video, a clip the library says lasts durationS; view
   * paints, as for the Player.
   */
  constructor(video, view, { hls, durationS }) {
    this.video = video;
    this.view = view;
    this.hls = hls;
    this.libraryDurationS = durationS;
    this.stats = new PlaybackStats();
  }

  /** Hands the playlist to the video element and asks it to play (at nowMs, performance.now()). */
  start(nowMs) {
    this.#startedAtMs = nowMs;
    this.log(`This browser has no Media Source Extensions: it plays ${this.hls} itself, as HLS. The controls `
      + 'act on its video element; the stats show only its position, buffer and stalls (no bytes, fragments '
      + 'or glitches: the browser does not report them).');
    this.view.nativeHls(this.hls);
    this.video.src = this.hls;
    this.play();
  }

  /** The seek bar's span: the element's duration, or a live playlist's seekable end. */
  get durationS() {
    const { duration, seekable } = this.video;
    if (Number.isFinite(duration)) {
      return duration;
    }
    return seekable.length > 0 ? seekable.end(seekable.length - 1) : this.libraryDurationS;
  }

  tick() {
    const positionS = this.video.currentTime;
    const ranges = rangesOf(this.video.buffered);
    this.view.render({
      positionS, durationS: this.durationS, aheadS: bufferedAheadS(ranges, positionS), ranges, stats: this.stats,
      fragmentS: 1, receiveBitsPerSecond: null,
    });
  }

  play() {
    this.wantPlay = true;
    this.setState('buffering');
    askToPlay(this.video, this);
  }

  playClicked() {
    this.play();
  }

  togglePlay() {
    if (['loading', 'error'].includes(this.state)) {
      return;
    }
    if (this.wantPlay && (this.state === 'playing' || this.state === 'buffering')) {
      this.wantPlay = false;
      this.video.pause();
      this.setState('paused');
    } else {
      this.play();
    }
  }

  /** Moves the element's position; it fetches the parts there itself. */
  seek(seconds) {
    const target = Math.min(Math.max(0, seconds), this.durationS);
    this.video.currentTime = target;
    this.log(`seek to ${target.toFixed(1)} s`);
  }

  /** A live playlist's edge: the end of what the element can seek to. */
  goLive() {
    const { seekable } = this.video;
    if (!Number.isFinite(this.video.duration) && seekable.length > 0) {
      this.seek(seekable.end(seekable.length - 1));
    }
  }

  pictureShown() {
    this.setState('playing');
    if (!this.#pictureShown) {
      this.#pictureShown = true;
      this.log(`playing after ${(performance.now() - this.#startedAtMs).toFixed(0)} ms`);
    }
  }

  waiting() {
    if (this.state === 'playing' && !this.video.seeking) {
      this.stats.stalls++;
      this.view.stalled();
      this.log(`stalled at ${this.video.currentTime.toFixed(1)} s: the browser waits for the playlist's next part`,
        true);
      this.setState('buffering');
    }
  }

  clipEnded() {
    this.setState('ended');
    this.log('the clip ended');
  }

  /** "Retry now": the element loads the playlist again, which admits a new session. */
  retry() {
    this.view.hideOverlay();
    this.video.src = this.hls;
    this.video.load();
    this.play();
  }

  /** The page goes away: the element stops fetching, and the server ends the session after its timeout. */
  leave() {
    this.video.removeAttribute('src');
    this.video.load();
  }

  fail(title, text) {
    this.setState('error');
    this.log(`${title}: ${text}`, true);
    this.view.show(title, text, {
      detail: 'The browser played the HLS playlist itself and says no more than this. A server whose disks have '
        + 'no room for another stream refuses a new session for a while: retry shortly.',
      retry: true,
    });
  }

  setState(state) {
    this.state = state;
    this.view.state(state, state === 'playing' || state === 'buffering' && this.wantPlay);
  }

  log(text, bad = false) {
    this.view.log(text, bad);
  }
}
