// The browser's own HLS, where it has no MediaSource of either kind: the video element gets the
// clip's playlist, the log says how little the stats can show, and the controls act on the element.
// The video element and the view are stand-ins.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NativeHls } from '../../main/resources/io/rondo/client/player/native-hls.js';

const INFO = { hls: '/videos/color-bars.mp4.m3u8', durationS: 6 };

/** A TimeRanges as the browser gives it, from [start, end] pairs. */
function timeRanges(...pairs) {
  return { length: pairs.length, start: (i) => pairs[i][0], end: (i) => pairs[i][1] };
}

class StandInVideo {
  src = '';
  currentTime = 0;
  duration = NaN;
  paused = true;
  seeking = false;
  buffered = timeRanges();
  seekable = timeRanges();
  playRefusal = null;

  play() {
    this.paused = false;
    return this.playRefusal ? Promise.reject(this.playRefusal) : Promise.resolve();
  }

  pause() {
    this.paused = true;
  }
}

class StandInView {
  lines = [];
  states = [];
  shown = null;
  rendered = null;
  stalls = 0;
  stream = null;

  log(text, bad = false) {
    this.lines.push({ text, bad });
  }

  state(state, playing) {
    this.states.push([state, playing]);
  }

  nativeHls(url) {
    this.stream = url;
  }

  render(painted) {
    this.rendered = painted;
  }

  show(title, text, options) {
    this.shown = { title, text, ...options };
  }

  stalled() {
    this.stalls++;
  }

  hideOverlay() {
    this.shown = null;
  }
}

function started(video = new StandInVideo()) {
  const view = new StandInView();
  const native = new NativeHls(video, view, INFO);
  native.start(0);
  return { native, video, view };
}

test('the video element plays the clip\'s playlist, and the log says the stats are the element\'s', () => {
  const { video, view, native } = started();
  assert.equal(video.src, INFO.hls);
  assert.equal(video.paused, false, 'asked to play');
  assert.equal(view.stream, INFO.hls);
  assert.match(view.lines[0].text, /no Media Source Extensions: it plays \/videos\/color-bars\.mp4\.m3u8 itself/);
  assert.match(view.lines[0].text, /stats show only its position, buffer and stalls/);
  assert.equal(native.state, 'buffering');
  native.pictureShown();
  assert.equal(native.state, 'playing');
});

test('a play the browser refuses without a tap waits for the big play button', async () => {
  const video = new StandInVideo();
  video.playRefusal = Object.assign(new Error('needs a gesture'), { name: 'NotAllowedError' });
  const { native } = started(video);
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(native.state, 'ready');
});

test('the seek bar spans the element\'s duration, or a live playlist\'s seekable window', () => {
  const { native, video, view } = started();
  assert.equal(native.durationS, 6, 'the library\'s duration until the element knows');
  video.duration = 6.016;
  video.currentTime = 2;
  video.buffered = timeRanges([0, 5]);
  native.tick();
  assert.equal(view.rendered.durationS, 6.016);
  assert.equal(view.rendered.aheadS, 3);
  assert.equal(view.rendered.receiveBitsPerSecond, null, 'the element does not say what it receives');
  video.duration = Infinity;
  video.seekable = timeRanges([0, 42]);
  assert.equal(native.durationS, 42);
  native.goLive();
  assert.equal(video.currentTime, 42);
  native.seek(100);
  assert.equal(video.currentTime, 42, 'no further than the element can seek');
});

test('pause, play and stalls act on and count what the element does', () => {
  const { native, video, view } = started();
  native.pictureShown();
  native.togglePlay();
  assert.equal(video.paused, true);
  assert.equal(native.state, 'paused');
  native.togglePlay();
  assert.equal(video.paused, false);
  native.pictureShown();
  native.waiting();
  assert.equal(native.stats.stalls, 1);
  assert.equal(view.stalls, 1);
  assert.equal(native.state, 'buffering');
  native.waiting();
  assert.equal(native.stats.stalls, 1, 'one stall until it plays again');
});

test('an error says the browser told no more, and a retry loads the playlist again', () => {
  const { native, video, view } = started();
  native.fail('The clip could not be decoded', 'media error (code 4)');
  assert.equal(native.state, 'error');
  assert.equal(view.shown.retry, true);
  assert.match(view.shown.detail, /refuses a new session for a while: retry shortly/);
  native.togglePlay();
  assert.equal(native.state, 'error', 'the play button does nothing over the message');
  video.src = '';
  video.load = () => { video.loaded = true; };
  native.retry();
  assert.equal(video.src, INFO.hls);
  assert.equal(video.loaded, true);
  assert.equal(view.shown, null);
  assert.equal(native.state, 'buffering');
});
