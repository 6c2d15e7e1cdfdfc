// The player on an iPhone or iPad: which source it plays through (a MediaSource, a
// ManagedMediaSource where there is no MediaSource, the browser's own HLS where there is neither),
// what it says when nothing works, how a ManagedMediaSource's streaming events reach the server as
// PAUSE and RESUME, how media the browser evicts under the playing position is fetched again with
// SEEK, and AirPlay through the clip's HLS playlist. The browser is stand-ins firing its events.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Connection } from '../../main/resources/io/rondo/client/player/connection.js';
import { SourceFeed } from '../../main/resources/io/rondo/client/player/media.js';
import {
  airPlayable, choosePlayback, HLS_TYPE, MANAGED, MSE, NATIVE_HLS, NONE, offerAirPlay, refetchFromS, refusal,
} from '../../main/resources/io/rondo/client/player/media-source.js';
import { PlayerStream } from '../../main/resources/io/rondo/client/player/player-stream.js';
import * as P from '../../main/resources/io/rondo/client/player/protocol.js';

const TYPE_NAMES = Object.fromEntries(Object.entries(P.Type).map(([name, code]) => [code, name]));
const MP4 = 'video/mp4; codecs="avc1.42c01e,mp4a.40.2"';
const INFO = {
  kind: 'continuous', mimeType: 'video/mp4', mseType: MP4, durationNs: 6e9, hls: '/videos/color-bars.mp4.m3u8',
};

/** A TimeRanges as the browser gives it, from [start, end] pairs. */
function timeRanges(...pairs) {
  return { length: pairs.length, start: (i) => pairs[i][0], end: (i) => pairs[i][1] };
}

class StandInSourceBuffer extends EventTarget {
  updating = false;
  mode = 'segments';
  buffered = timeRanges();
  appended = [];

  appendBuffer(bytes) {
    this.appended.push(bytes);
  }

  remove() {}

  /** The browser removed ranges from what it holds, as a ManagedSourceBuffer tells it. */
  evict(...pairs) {
    const event = new Event('bufferedchange');
    event.addedRanges = timeRanges();
    event.removedRanges = timeRanges(...pairs);
    this.dispatchEvent(event);
  }
}

/** A ManagedMediaSource (or a MediaSource: the same but for the streaming events). */
class StandInMediaSource extends EventTarget {
  static latest = null;
  static asked = [];
  readyState = 'open';
  duration = NaN;
  sourceBuffer = null;

  static isTypeSupported(type) {
    StandInMediaSource.asked.push(type);
    return type.startsWith('video/mp4');
  }

  constructor() {
    super();
    StandInMediaSource.latest = this;
  }

  addSourceBuffer() {
    this.sourceBuffer = new StandInSourceBuffer();
    return this.sourceBuffer;
  }
}

class StandInVideo extends EventTarget {
  src = '';
  currentTime = 0;
  disableRemotePlayback = false;
  children = [];
  pickerShown = 0;
  ownerDocument = { createElement: (tagName) => ({ tagName }) };

  constructor(canPlayHls = '') {
    super();
    this.canPlayHls = canPlayHls;
  }

  canPlayType(type) {
    return type === HLS_TYPE ? this.canPlayHls : '';
  }

  append(...elements) {
    this.children.push(...elements);
  }

  webkitShowPlaybackTargetPicker() {
    this.pickerShown++;
  }
}

const URL_MAKER = { createObjectURL: () => 'blob:managed-media-source' };

class RecordingSocket {
  isOpen = true;
  sent = [];

  send(bytes) {
    this.sent.push(bytes);
  }

  close() {
    this.isOpen = false;
  }

  startReports() {}

  stopReports() {}

  get types() {
    return this.sent.map((bytes) => TYPE_NAMES[new Uint8Array(bytes)[2]]);
  }
}

/** The stream half of the player, with what the Player gives it stood in for, on an accepted stream. */
class StandInPlayer extends PlayerStream {
  wantPlay = true;
  state = 'playing';
  logged = [];

  constructor(video) {
    super();
    this.video = video;
    this.socket = new RecordingSocket();
    this.connection = new Connection(this.socket);
    this.connection.open('/videos/color-bars.mp4', 0, { rate: 1e6, buffer: 8e6 }, 0);
    this.connection.accepted({ type: 'ACCEPT', fragmentDurationNs: 1e9 }, 0);
    this.feed = new SourceFeed(video, {
      idle: () => {},
      quotaExceeded: () => {},
      failed: (title, text) => assert.fail(`${title}: ${text}`),
      streaming: (wanted) => this.streamingChanged(wanted),
      evicted: (removed) => this.evicted(removed),
    });
  }

  setState(state) {
    this.state = state;
  }

  log(text) {
    this.logged.push(text);
  }

  expectAfterResume() {}

  /** The frames sent after OPEN. */
  get sentAfterOpen() {
    return this.socket.types.slice(1);
  }
}

/** A player on an iPhone: a ManagedMediaSource opened and its SourceBuffer attached. */
async function managedPlayer(info = INFO) {
  const video = new StandInVideo('maybe');
  const playback = choosePlayback({ ManagedMediaSource: StandInMediaSource, URL: URL_MAKER }, video);
  const player = new StandInPlayer(video);
  const opened = player.feed.open(playback, 6, info.hls);
  const mediaSource = StandInMediaSource.latest;
  mediaSource.dispatchEvent(new Event('sourceopen'));
  await opened;
  player.feed.attach(MP4);
  return { player, video, mediaSource, sourceBuffer: mediaSource.sourceBuffer };
}

test('a ManagedMediaSource is chosen where there is no MediaSource, and a MediaSource wherever there is one', () => {
  const video = new StandInVideo('probably');
  const iphone = choosePlayback({ ManagedMediaSource: StandInMediaSource, URL: URL_MAKER }, video);
  assert.equal(iphone.kind, MANAGED);
  assert.equal(iphone.MediaSource, StandInMediaSource);
  class Desktop {}
  const ipad = choosePlayback({ MediaSource: Desktop, ManagedMediaSource: StandInMediaSource, URL: URL_MAKER }, video);
  assert.equal(ipad.kind, MSE, 'an iPad with both keeps Media Source Extensions, as every other browser');
  assert.equal(ipad.MediaSource, Desktop);
});

test('the type is asked of the ManagedMediaSource, and a type it refuses is said plainly', () => {
  const playback = choosePlayback({ ManagedMediaSource: StandInMediaSource, URL: URL_MAKER }, new StandInVideo());
  StandInMediaSource.asked = [];
  assert.equal(refusal(playback, INFO), null);
  assert.deepEqual(StandInMediaSource.asked, [MP4]);
  assert.equal(refusal(playback, { ...INFO, mseType: 'video/webm; codecs="vp9"' }),
    'This browser cannot decode video/webm; codecs="vp9" through Media Source Extensions.');
});

test('the browser\'s own HLS is chosen where there is neither, if it says it plays HLS', () => {
  for (const answer of ['maybe', 'probably']) {
    const playback = choosePlayback({ URL: URL_MAKER }, new StandInVideo(answer));
    assert.equal(playback.kind, NATIVE_HLS, answer);
    assert.equal(refusal(playback, INFO), null, 'the playlist /player/info gave is played');
    assert.equal(airPlayable(playback, INFO), true, 'and goes to AirPlay as it is');
  }
});

test('where nothing works the player says why, and the server\'s reason when it has no playlist for the clip', () => {
  const none = choosePlayback({ URL: URL_MAKER }, new StandInVideo(''));
  assert.equal(none.kind, NONE);
  assert.equal(refusal(none, INFO),
    'This browser has no Media Source Extensions, which the player needs, and does not play HLS itself.');
  const hlsOnly = choosePlayback({ URL: URL_MAKER }, new StandInVideo('maybe'));
  const webm = { ...INFO, hls: undefined, hlsUnavailable: 'HLS cannot carry WebM: make an MP4 copy with ffmpeg' };
  assert.equal(refusal(hlsOnly, webm), 'This browser has no Media Source Extensions and plays clips only as HLS, '
    + 'which the server does not offer for this one: HLS cannot carry WebM: make an MP4 copy with ffmpeg.');
  assert.match(refusal(hlsOnly, { ...INFO, hls: undefined }), /does not offer for this one: it gave no playlist\.$/);
});

test('a ManagedMediaSource goes in beside the HLS playlist for AirPlay, else with remote playback off', async () => {
  const { video } = await managedPlayer();
  assert.equal(video.src, '', 'fed through <source> children, not src');
  assert.deepEqual(video.children, [
    { tagName: 'source', src: 'blob:managed-media-source' },
    { tagName: 'source', src: INFO.hls, type: HLS_TYPE },
  ]);
  assert.equal(video.disableRemotePlayback, false);
  const alone = await managedPlayer({ ...INFO, hls: undefined });
  assert.equal(alone.video.src, 'blob:managed-media-source');
  assert.deepEqual(alone.video.children, []);
  assert.equal(alone.video.disableRemotePlayback, true, 'a ManagedMediaSource without an alternative');
  assert.equal(airPlayable({ kind: MANAGED }, { ...INFO, hls: undefined }), false);
  assert.equal(airPlayable({ kind: MSE }, INFO), false, 'a MediaSource cannot go to a receiver');
});

test('endstreaming PAUSEs the stream on the server and startstreaming RESUMEs it', async () => {
  const { player, mediaSource } = await managedPlayer();
  assert.equal(player.feed.streaming, true, 'streaming until the browser says otherwise');
  mediaSource.dispatchEvent(new Event('endstreaming'));
  assert.deepEqual(player.sentAfterOpen, ['PAUSE']);
  assert.equal(player.feed.streaming, false);
  assert.equal(player.connection.closed, false, 'the stream stays open: the server keeps its admission');
  mediaSource.dispatchEvent(new Event('endstreaming'));
  assert.deepEqual(player.sentAfterOpen, ['PAUSE'], 'paused once');
  mediaSource.dispatchEvent(new Event('startstreaming'));
  assert.deepEqual(player.sentAfterOpen, ['PAUSE', 'RESUME']);
  assert.equal(player.feed.streaming, true);
});

test('startstreaming does not RESUME a stream the person paused', async () => {
  const { player, mediaSource } = await managedPlayer();
  player.wantPlay = false;
  player.connection.pause();
  mediaSource.dispatchEvent(new Event('endstreaming'));
  mediaSource.dispatchEvent(new Event('startstreaming'));
  assert.deepEqual(player.sentAfterOpen, ['PAUSE']);
});

test('media the browser evicts under the playing position is fetched again with SEEK', async () => {
  const { player, video, sourceBuffer } = await managedPlayer();
  video.currentTime = 12.5;
  sourceBuffer.evict([10, 14]);
  assert.deepEqual(player.sentAfterOpen, ['SEEK']);
  assert.equal(new DataView(player.socket.sent[1]).getBigInt64(8), 12_500_000_000n, 'from the playing position');
  assert.equal(player.state, 'buffering', 'and playing waits for it');
  assert.ok(player.logged.some((line) => line.includes('evicted media from 12.5 s')), player.logged.join('\n'));
});

test('eviction ahead of the position is fetched again from its start; behind it, nothing is', async () => {
  const { player, video, sourceBuffer } = await managedPlayer();
  video.currentTime = 30;
  sourceBuffer.evict([0, 8]);
  assert.deepEqual(player.sentAfterOpen, [], 'what lies behind is not needed (the player drops it too)');
  sourceBuffer.evict([0, 5], [36, 40]);
  assert.deepEqual(player.sentAfterOpen, ['SEEK']);
  assert.equal(new DataView(player.socket.sent[1]).getBigInt64(8), 36_000_000_000n);
});

test('where to fetch again after an eviction', () => {
  assert.equal(refetchFromS([{ start: 10, end: 14 }], 12), 12);
  assert.equal(refetchFromS([{ start: 20, end: 24 }, { start: 15, end: 16 }], 12), 15, 'the earliest');
  assert.equal(refetchFromS([{ start: 0, end: 12 }], 12), null, 'ending at the position');
  assert.equal(refetchFromS([], 12), null);
});

test('AirPlay: the button shows while a receiver is in reach and opens Safari\'s picker', () => {
  const video = new StandInVideo();
  const button = new EventTarget();
  button.hidden = true;
  assert.equal(offerAirPlay({}, video, button), false, 'no AirPlay in this browser');
  assert.equal(offerAirPlay({ WebKitPlaybackTargetAvailabilityEvent: class {} }, video, button), true);
  const availability = (value) => {
    const event = new Event('webkitplaybacktargetavailabilitychanged');
    event.availability = value;
    video.dispatchEvent(event);
  };
  availability('available');
  assert.equal(button.hidden, false);
  button.dispatchEvent(new Event('click'));
  assert.equal(video.pickerShown, 1);
  availability('not-available');
  assert.equal(button.hidden, true);
});
