// Rondo's web player: one clip over the stream protocol's WebSocket binding, into Media Source
// Extensions. The page is /player/?src=NAME. This module decides: it takes each frame, each tick
// and each thing a person does, and tells the modules beside it, which keep the state and do the
// work:
//   player-stream.js  the stream: each frame and what it does (Player extends it)
//   connection.js  one connection's stream (a new Connection for each connection)
//   start-rule.js  when playing may start, and start again after a seek, a stall or a pause
//   buffer.js      what is held, what to drop, the buffer level
//   stats.js       what the stats panel counts
//   profile.js     the client profile declared in OPEN; library.js the clip's HTTP side
//   live.js        a live object's recorded window, its edge and the delay behind it
//   protocol.js    the frames; stream.js the WebSocket; media.js Media Source Extensions
//   media-source.js  MediaSource, ManagedMediaSource (iPhone) or the browser's own HLS; AirPlay
//   native-hls.js  the clip's HLS playlist in the video element, where the browser has no MediaSource
//   view.js        what a person sees; controls.js what a person does
//   units.js       sizes, rates and times as a person reads them

import { bufferedAheadS, dropUntilS, HeldFragments, holds, rangesOf } from './buffer.js';
import { askToPlay, bindControls } from './controls.js';
import { fetchInfo, measureRate, pathOf } from './library.js';
import { firstStart, LiveWindow } from './live.js';
import { SourceFeed } from './media.js';
import { airPlayable, choosePlayback, MANAGED, NATIVE_HLS, offerAirPlay, refusal } from './media-source.js';
import { NativeHls } from './native-hls.js';
import { PlayerStream, STOPPED } from './player-stream.js';
import { chooseProfile } from './profile.js';
import { mayStart, newestAfterResume } from './start-rule.js';
import { PlaybackStats } from './stats.js';
import { $, View } from './view.js';

const TICK_MS = 250;
/** A seek lands this far before the clip's end at most, so that a frame is left to show. */
const LAST_SEEK_BEFORE_END_S = 0.05;

class Player extends PlayerStream {
  state = 'loading';
  wantPlay = true;
  info = null;
  profile = null;
  /** The newest connection's stream; connect() replaces it, nothing resets it. */
  connection = null;
  /** What plays the clip where the browser plays its HLS playlist itself; null while this player does. */
  native = null;

  constructor(name) {
    super();
    this.name = name;
    this.view = new View(60 * (1000 / TICK_MS));
    this.video = this.view.video;
    this.fragments = new HeldFragments();
    this.stats = new PlaybackStats();
    this.live = new LiveWindow();
    /** A live object opened from its start, not asked for any position, goes to the live edge on ACCEPT. */
    this.goLiveOnAccept = false;
    this.feed = new SourceFeed(this.video, {
      idle: () => this.fed(),
      quotaExceeded: () => this.evict(true),
      failed: (title, text) => this.fail(title, text),
      streaming: (wanted) => this.streamingChanged(wanted),
      evicted: (removed) => this.evicted(removed),
    });
  }

  /** The seek bar's span: the clip's duration, or a live object's recorded window. */
  get durationS() {
    return this.live.windowS(this.info.durationNs / 1e9);
  }

  async start() {
    bindControls(() => this.native ?? this, this.view);
    setInterval(() => (this.native ?? this).tick(), TICK_MS);
    this.view.crumbs(this.name);
    if (!this.name) {
      this.view.show('Choose a clip', 'Open a video or audio object from the library to play it here.',
        { link: ['/', 'Browse the library'] });
      this.setState('idle');
      return;
    }
    this.view.title(this.name);
    try {
      this.info = await fetchInfo(this.name);
    } catch (e) {
      this.fail('Cannot load this clip', e.message);
      return;
    }
    if (this.info.kind !== 'continuous') {
      this.setState('unsupported');
      this.view.show('Not a clip', `${this.name} is ${this.info.mimeType}: a document, not a stream.`,
        { link: [pathOf(this.name), 'Open the file'] });
      return;
    }
    this.view.details(this.info);
    const playback = choosePlayback(window, this.video);
    const refused = refusal(playback, this.info);
    if (refused) {
      this.unsupported(refused);
      return;
    }
    if (airPlayable(playback, this.info)) {
      offerAirPlay(window, this.video, $('airplay'));
    }
    const hls = this.info.hls ? pathOf(this.info.hls) : null;
    if (playback.kind === NATIVE_HLS) {
      this.native = new NativeHls(this.video, this.view, { hls, durationS: this.info.durationNs / 1e9 });
      this.native.start(performance.now());
      return;
    }
    if (playback.kind === MANAGED) {
      this.log('ManagedMediaSource: the browser says when to fetch (PAUSE and RESUME follow it) and may evict '
        + `what it holds${hls ? '; AirPlay plays the HLS playlist' : ''}`);
    }
    this.profile = await chooseProfile(new URLSearchParams(location.search), navigator.deviceMemory,
      () => measureRate(this.name, this.info.size, (text, bad) => this.log(text, bad)), this.info.peakBitsPerSecond);
    this.view.profile(this.profile);
    await this.feed.open(playback, this.durationS, hls);
    const params = new URLSearchParams(location.search);
    const start = firstStart(params, this.info);
    this.goLiveOnAccept = !start.fromLive && !params.has('behind');
    this.connect(start.ns, start.fromLive);
  }

  // ----- what is held -----

  /** The SourceBuffer took all that was queued: the media ends if the stream did, old media goes. */
  fed() {
    const connection = this.connection;
    if (connection.endReceived && !connection.endOfStreamSignalled && this.feed.endOfStream()) {
      connection.endOfStreamSignalled = true;
    }
    this.evict(false);
    this.tick();
  }

  /** Drops what lies well behind the playing position, so a long clip fits the browser's quota. */
  evict(urgent) {
    const until = dropUntilS(this.feed.ranges, this.video.currentTime, urgent);
    if (until !== null) {
      this.fragments.dropBefore(until * 1e9);
      this.feed.remove(0, until);
    }
  }

  aheadS() {
    return bufferedAheadS(rangesOf(this.video.buffered), this.video.currentTime);
  }

  /** All the clip after the playing position is held: the stream ended and nothing is left to append. */
  allBuffered() {
    return this.connection !== null && this.connection.endReceived && this.feed.settled;
  }

  // ----- playback -----

  tick() {
    if (!this.info || this.info.kind !== 'continuous') {
      return;
    }
    const nowMs = performance.now();
    const positionS = this.video.currentTime;
    const ranges = rangesOf(this.video.buffered);
    const aheadS = bufferedAheadS(ranges, positionS);
    const connection = this.connection;
    const landAt = this.live.landOn(ranges);
    if (landAt !== null) {
      this.video.currentTime = landAt;
    }
    if (this.state === 'buffering' && this.wantPlay && mayStart({
      allBuffered: this.allBuffered(), aheadS, positionS, durationS: this.live.live ? Infinity : this.durationS,
      fragmentDurationNs: connection?.accept?.fragmentDurationNs, newest: connection?.newest,
      streamClockNs: connection ? connection.streamClockNs(nowMs) : null,
    })) {
      this.play();
    }
    const receiveBitsPerSecond = this.stats.receiveBitsPerSecond(nowMs);
    const fragmentS = connection?.accept ? connection.accept.fragmentDurationNs / 1e9 : 1;
    this.view.render({
      positionS, durationS: this.durationS, aheadS, ranges, stats: this.stats, fragmentS,
      live: this.live.view(positionS, fragmentS),
      receiveBitsPerSecond: connection && !connection.closed ? receiveBitsPerSecond : null,
    });
  }

  play() {
    this.setState('playing');
    askToPlay(this.video, this);
  }

  /** The big play button, shown when the browser would not play without a person's click. */
  playClicked() {
    this.wantPlay = true;
    this.play();
  }

  /** The person's play: resumes the stream on the server if it was paused there. */
  userPlay() {
    if ([...STOPPED, 'loading', 'idle'].includes(this.state)) {
      return;
    }
    this.wantPlay = true;
    if (this.state === 'ended' || this.video.ended) {
      this.seek(0);
      return;
    }
    const connection = this.connection;
    if (this.feed.streaming && connection.resume()) {
      this.log('RESUME');
      this.expectAfterResume(connection);
    }
    this.setState('buffering');
    this.tick();
  }

  /** Plays again only once what is held covers the wait for the first fragment after RESUME. */
  expectAfterResume(connection) {
    const ranges = rangesOf(this.video.buffered);
    if (!connection.accept || ranges.length === 0) {
      return;
    }
    connection.newest = newestAfterResume(connection.streamClockNs(performance.now()),
      connection.accept.fragmentDurationNs, ranges[ranges.length - 1].end);
  }

  userPause() {
    this.wantPlay = false;
    this.video.pause();
    if (this.connection?.pause()) {
      this.log('PAUSE');
    }
    if (![...STOPPED, 'connecting'].includes(this.state)) {
      this.setState('paused');
    }
  }

  togglePlay() {
    if (this.wantPlay && (this.state === 'playing' || this.state === 'buffering')) {
      this.userPause();
    } else {
      this.userPlay();
    }
  }

  /**
   * Seeks: within what is held, the browser just moves; elsewhere the server is asked with SEEK
   * (or, when the stream has ended, a new OPEN at the position) and DATA from before it is
   * dropped until the fragment that answers it arrives.
   */
  seek(seconds) {
    const connection = this.connection;
    if (!this.info || !connection?.accept && this.state !== 'error') {
      return;
    }
    if (this.live.isEdge(seconds, connection?.accept ? connection.accept.fragmentDurationNs / 1e9 : 1)) {
      this.goLive();
      return;
    }
    const target = Math.min(Math.max(0, seconds), Math.max(0, this.durationS - LAST_SEEK_BEFORE_END_S));
    if (holds(rangesOf(this.video.buffered), target, { allBuffered: this.allBuffered(), durationS: this.durationS })) {
      this.video.currentTime = target;
      this.log(`seek to ${target.toFixed(1)} s (buffered)`);
      if (this.wantPlay) {
        this.setState('buffering');
      }
      this.tick();
      return;
    }
    this.video.currentTime = target;
    this.fetchFrom(target);
  }

  /** Where a new stream should start: the playing position. */
  resumeAtNs() {
    return Math.round(this.video.currentTime * 1e9);
  }

  /** "Retry now": a new stream from the playing position, or the page again if it never got that far. */
  retry() {
    this.reconnector.reset();
    if (this.info && this.info.kind === 'continuous' && this.profile) {
      this.connect(this.resumeAtNs());
    } else {
      location.reload();
    }
  }

  // ----- the video element's events -----

  pictureShown() {
    const connection = this.connection;
    if (connection && this.stats.pictureShown(performance.now(), connection.openSentAtMs)) {
      this.log(`playing after ${this.stats.latency.picture.toFixed(0)} ms`);
    }
  }

  waiting() {
    if (this.state === 'playing' && !this.video.seeking && !this.allBuffered()) {
      this.stats.stalls++;
      this.view.stalled();
      this.log(`stalled at ${this.video.currentTime.toFixed(1)} s: waiting for data`, true);
      this.setState('buffering');
    }
  }

  clipEnded() {
    this.setState('ended');
    this.log('the clip ended');
  }

  /** The page goes away: the server is told with CLOSE. */
  leave() {
    this.connection?.close();
  }

  // ----- what a person sees -----

  setState(state) {
    this.state = state;
    this.view.state(state, state === 'playing' || state === 'buffering' && this.wantPlay);
    if (state !== 'playing' && state !== 'ready' && !this.video.paused && state !== 'ended') {
      this.video.pause();
    }
  }

  unsupported(text) {
    this.setState('unsupported');
    this.log(text, true);
    this.view.show('This browser cannot play this clip', text, { link: [pathOf(this.name), 'Download the file'] });
  }

  fail(title, text, retry = false) {
    this.view.stopCountdown();
    this.connection?.close();
    this.setState('error');
    this.log(`${title}: ${text}`, true);
    this.view.show(title, text, { retry });
  }

  log(text, bad = false) {
    this.view.log(text, bad);
  }
}

const player = new Player(new URLSearchParams(location.search).get('src'));
window.rondoPlayer = player;
player.start().catch((e) => player.fail('The player failed', e.message));
