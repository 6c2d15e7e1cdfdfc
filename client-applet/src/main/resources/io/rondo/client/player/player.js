// Rondo's web player: one clip over the stream protocol's WebSocket binding, into Media Source
// Extensions. The page is /player/?src=NAME. The server sends one fragment per round, each due by
// a deadline on the stream's clock (the first one round after ACCEPT, each later one two rounds
// after the round that reads it). The player starts, and restarts after a seek, once the playing
// position is far enough behind the newest fragment's deadline that every later fragment, due a
// round after the one before, is due before it is shown: then it never stalls while the server
// keeps its promise, and a stall it does see is the server's (or the network's) fault.

import * as P from './protocol.js';

const REPORT_MS = 1000;
const TICK_MS = 250;
const KEEP_BEHIND_S = 20;
const RATE_WINDOW_MS = 4000;
const PROBE_BYTES = 512 * 1024;
const MAX_DECLARED_RATE = 64 * 1024 * 1024;
const MIN_DECLARED_RATE = 64 * 1024;
const CHART_SAMPLES = 60 * (1000 / TICK_MS);

const $ = (id) => document.getElementById(id);

/** 1536 -> "1.5 KiB". */
export function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Bytes per second as a person reads a rate: "1.2 MB/s". */
export function formatRate(bytesPerSecond) {
  if (bytesPerSecond >= 1e6) {
    return `${(bytesPerSecond / 1e6).toFixed(1)} MB/s`;
  }
  return `${(bytesPerSecond / 1e3).toFixed(0)} kB/s`;
}

/** 75.4 -> "1:15". */
export function formatTime(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) {
    return '0:00';
  }
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "2M", "512k", "8388608" -> bytes; null when absent or not a size. */
export function parseSize(text) {
  if (text == null || text === '') {
    return null;
  }
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(text.trim());
  if (!match) {
    return null;
  }
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2].toLowerCase()];
  return Math.round(Number(match[1]) * scale);
}

/** A catalog name as a URL path, each segment encoded. */
function pathOf(name) {
  return name.split('/').map(encodeURIComponent).join('/');
}

class Player {
  constructor(name) {
    this.name = name;
    this.video = $('video');
    this.stage = $('stage');
    this.info = null;
    this.profile = null;
    this.mediaSource = null;
    this.sourceBuffer = null;
    this.queue = [];
    this.socket = null;
    this.accept = null;
    this.state = 'loading';
    this.wantPlay = true;
    this.pausedOnServer = false;
    this.seeksSent = 0;
    this.discontinuitiesSeen = 0;
    this.endReceived = false;
    this.endOfStreamCalled = false;
    this.fragments = [];
    this.received = [];
    this.stats = { bytes: 0, fragments: 0, glitches: 0, stalls: 0 };
    this.lastData = null;
    this.streamBytes = 0;
    this.openSentAt = 0;
    this.acceptAt = 0;
    this.latency = null;
    this.countdown = null;
    this.reportTimer = null;
    this.dragging = false;
    this.history = [];
    this.stalledSinceSample = false;
  }

  async start() {
    this.bindControls();
    setInterval(() => this.tick(), TICK_MS);
    this.renderCrumbs();
    if (!this.name) {
      this.show('Choose a clip', 'Open a video or audio object from the library to play it here.',
        { link: ['/', 'Browse the library'] });
      this.setState('idle');
      return;
    }
    $('title').textContent = this.name.split('/').pop();
    document.title = `${this.name.split('/').pop()} - Rondo`;
    try {
      this.info = await this.fetchInfo();
    } catch (e) {
      this.fail('Cannot load this clip', e.message);
      return;
    }
    if (this.info.kind !== 'continuous') {
      this.setState('unsupported');
      this.show('Not a clip', `${this.name} is ${this.info.mimeType}: a document, not a stream.`,
        { link: [pathOf(this.name), 'Open the file'] });
      return;
    }
    const seconds = this.info.durationNs / 1e9;
    $('subtitle').textContent = `${this.info.mseType} \u00b7 ${formatTime(seconds)} \u00b7 `
      + `${(this.info.bitsPerSecond / 1000).toFixed(0)} kbit/s \u00b7 ${formatBytes(this.info.size)}`;
    $('seek').max = String(seconds);
    if (!('MediaSource' in window)) {
      this.unsupported('This browser has no Media Source Extensions, which the player needs.');
      return;
    }
    if (!MediaSource.isTypeSupported(this.info.mseType)) {
      this.unsupported(`This browser cannot decode ${this.info.mseType} through Media Source Extensions.`);
      return;
    }
    this.profile = await this.chooseProfile();
    $('stat-profile').textContent = `${formatRate(this.profile.rate)}, ${formatBytes(this.profile.buffer)} buffer `
      + `(${this.profile.source})`;
    await this.openMediaSource();
    this.connect(0);
  }

  async fetchInfo() {
    const response = await fetch(`/player/info${pathOf(this.name)}`, { cache: 'no-cache' });
    if (response.status === 404) {
      throw new Error(`The library has no object named ${this.name}.`);
    }
    if (!response.ok) {
      throw new Error(`The server answered ${response.status} ${response.statusText} for the clip's details.`);
    }
    return response.json();
  }

  /**
   * The client profile declared in OPEN (papers/004 Sections 2.3 and 5): what the page's address
   * says (?rate=2M&buffer=16M), otherwise a measured receive rate (a timed ranged GET of the
   * clip's first bytes, reused for ten minutes) and the buffer this device can spare.
   */
  async chooseProfile() {
    const params = new URLSearchParams(location.search);
    const rate = parseSize(params.get('rate'));
    const buffer = parseSize(params.get('buffer'));
    const memory = navigator.deviceMemory ?? 4;
    const spare = Math.min(64, Math.max(16, memory * 8)) * 1024 * 1024;
    if (rate && buffer) {
      return { rate, buffer, source: 'set by the address' };
    }
    const measured = rate ?? await this.measureRate();
    return {
      rate: measured,
      buffer: buffer ?? spare,
      source: rate ? 'rate set by the address' : 'measured',
    };
  }

  async measureRate() {
    const key = 'rondo.measuredRate';
    try {
      const saved = JSON.parse(sessionStorage.getItem(key) ?? 'null');
      if (saved && Date.now() - saved.at < 10 * 60 * 1000) {
        return saved.rate;
      }
    } catch {
      // a stored value that does not parse is measured again
    }
    const bytes = Math.min(this.info.size, PROBE_BYTES);
    let rate = 4 * 1024 * 1024;
    try {
      const response = await fetch(pathOf(this.name), { headers: { Range: `bytes=0-${bytes - 1}` }, cache: 'no-store' });
      const headersAt = performance.now();
      const body = await response.arrayBuffer();
      const seconds = Math.max((performance.now() - headersAt) / 1000, 0.002);
      rate = body.byteLength / seconds;
      this.log(`measured ${formatRate(rate)} over ${formatBytes(body.byteLength)} by HTTP`);
    } catch (e) {
      this.log(`could not measure the receive rate (${e.message}); declaring ${formatRate(rate)}`, true);
    }
    rate = Math.round(Math.min(MAX_DECLARED_RATE, Math.max(MIN_DECLARED_RATE, rate)));
    try {
      sessionStorage.setItem(key, JSON.stringify({ rate, at: Date.now() }));
    } catch {
      // storage refused (private mode): measure again next time
    }
    return rate;
  }

  openMediaSource() {
    return new Promise((resolve) => {
      this.mediaSource = new MediaSource();
      this.mediaSource.addEventListener('sourceopen', () => {
        this.mediaSource.duration = this.info.durationNs / 1e9;
        resolve();
      }, { once: true });
      this.video.src = URL.createObjectURL(this.mediaSource);
    });
  }

  // ----- the stream -----

  /** Opens a stream at startNs on a new connection. */
  connect(startNs) {
    this.closeSocket();
    this.hideOverlay();
    this.stopCountdown();
    this.accept = null;
    this.seeksSent = 0;
    this.discontinuitiesSeen = 0;
    this.endReceived = false;
    this.endOfStreamCalled = false;
    this.pausedOnServer = false;
    this.lastData = null;
    this.streamBytes = 0;
    this.setState('connecting');
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${this.info.streamPath}`;
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => {
      this.openSentAt = performance.now();
      this.send(P.encodeOpen(this.name.replace(/^\//, ''), Math.round(startNs), this.profile.rate,
        this.profile.buffer));
      this.log(`OPEN ${this.name} at ${(startNs / 1e9).toFixed(1)} s`);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) {
        return;
      }
      let frame;
      try {
        frame = P.decode(event.data);
      } catch (e) {
        this.closeSocket();
        this.fail('The stream broke', `The server sent a frame this player cannot read: ${e.message}`, true);
        return;
      }
      this.onFrame(frame);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) {
        return;
      }
      this.socket = null;
      this.stopReports();
      if (!this.endReceived && !['rejected', 'error', 'unsupported'].includes(this.state)) {
        this.fail('The connection was lost', `The server closed the stream's connection (code ${event.code}`
          + `${event.reason ? `: ${event.reason}` : ''}) before the clip ended.`, true);
      }
    };
  }

  send(bytes) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(bytes);
    }
  }

  closeSocket() {
    this.stopReports();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      if (socket.readyState === WebSocket.OPEN && this.accept && !this.endReceived) {
        socket.send(P.encodeClose());
      }
      socket.close();
    }
  }

  onFrame(frame) {
    switch (frame.type) {
      case 'ACCEPT': return this.onAccept(frame);
      case 'REJECT': return this.onReject(frame);
      case 'DATA': return this.onData(frame);
      case 'END': return this.onEnd();
      case 'ERROR': return this.onError(frame);
      default: return undefined;
    }
  }

  onAccept(accept) {
    this.accept = accept;
    this.acceptAt = performance.now();
    this.log(`ACCEPT stream ${accept.streamId}: ${accept.codecs}, `
      + `${(accept.fragmentDurationNs / 1e9).toFixed(1)} s fragments, ${formatBytes(accept.initSegment.length)} init`);
    $('stat-stream').textContent = `#${accept.streamId}, ${accept.codecs}, `
      + `${(accept.fragmentDurationNs / 1e9).toFixed(1)} s fragments`;
    $('stat-bitrate').textContent = `${(accept.bitsPerSecond / 1000).toFixed(0)} kbit/s`;
    if (!this.sourceBuffer) {
      try {
        const type = accept.codecs ? `${this.info.mimeType}; codecs="${accept.codecs}"` : this.info.mimeType;
        this.sourceBuffer = this.mediaSource.addSourceBuffer(type);
      } catch (e) {
        this.closeSocket();
        this.unsupported(`This browser refused ${this.info.mimeType} with codecs ${accept.codecs}: ${e.message}`);
        return;
      }
      this.sourceBuffer.addEventListener('updateend', () => this.pump());
      this.sourceBuffer.addEventListener('error', () => this.fail('The clip could not be decoded',
        'The browser\'s decoder refused a fragment of this clip.'));
    }
    if (accept.initSegment.length > 0) {
      this.queue.push({ kind: 'append', bytes: accept.initSegment });
    }
    this.setState('buffering');
    this.startReports();
    this.pump();
  }

  onReject(reject) {
    this.closeSocket();
    const reason = P.RejectReason[reject.reason];
    this.setState('rejected');
    this.log(`REJECT ${reason.name}: ${reject.message}`, true);
    const title = reason.retry ? 'The server is busy' : 'The server cannot play this';
    this.show(title, reason.text, { detail: reject.message, retry: reason.retry });
    if (reason.retry && reject.retryAfterSeconds > 0) {
      this.startCountdown(reject.retryAfterSeconds, () => this.connect(this.resumeAtNs()));
    } else if (!reason.retry) {
      $('overlay-retry').hidden = true;
    }
  }

  onData(data) {
    this.streamBytes += data.fragment.byteLength;
    if (data.discontinuity) {
      this.discontinuitiesSeen++;
    }
    if (this.discontinuitiesSeen < this.seeksSent) {
      return;
    }
    const now = performance.now();
    const bytes = data.fragment.byteLength;
    this.stats.bytes += bytes;
    this.stats.fragments++;
    this.received.push({ at: now, bytes });
    if ((now - this.acceptAt) * 1e6 > data.deadlineNs) {
      this.stats.glitches++;
      this.log(`fragment ${data.fragmentIndex} arrived ${((now - this.acceptAt) - data.deadlineNs / 1e6).toFixed(0)}`
        + ' ms after its deadline', true);
    }
    if (this.latency === null) {
      this.latency = { firstData: now - this.openSentAt, accept: this.acceptAt - this.openSentAt, picture: null };
    }
    if (data.discontinuity) {
      this.log(`from ${(data.presentationNs / 1e9).toFixed(1)} s (fragment ${data.fragmentIndex})`);
    }
    this.lastData = { deadlineNs: data.deadlineNs, presentationNs: data.presentationNs };
    this.fragments.push({ startNs: data.presentationNs, bytes });
    if (this.sourceBuffer.mode === 'sequence' && (data.discontinuity || data.sequence === 0)) {
      // Byte streams without timestamps (MP3) are placed by the fragment's presentation time.
      this.queue.push({ kind: 'offset', seconds: data.presentationNs / 1e9 });
    }
    this.queue.push({ kind: 'append', bytes: data.fragment });
    this.pump();
  }

  onEnd() {
    this.endReceived = true;
    this.stopReports();
    this.log(`END after ${this.stats.fragments} fragments`);
    this.pump();
  }

  onError(error) {
    this.closeSocket();
    this.log(`ERROR ${error.codeName}: ${error.message}`, true);
    this.fail('The server ended the stream', `${error.message} (${error.codeName})`, true);
  }

  startReports() {
    this.stopReports();
    this.reportTimer = setInterval(() => {
      const ahead = this.bufferedAhead();
      const from = this.video.currentTime * 1e9 - (this.accept ? this.accept.fragmentDurationNs : 0);
      const heldBytes = this.fragments.filter((f) => f.startNs >= from).reduce((sum, f) => sum + f.bytes, 0);
      this.send(P.encodeReport(Math.round(ahead * 1e9), heldBytes, this.streamBytes));
    }, REPORT_MS);
  }

  stopReports() {
    clearInterval(this.reportTimer);
    this.reportTimer = null;
  }

  // ----- Media Source Extensions -----

  /** Feeds the source buffer one append or removal at a time. */
  pump() {
    const buffer = this.sourceBuffer;
    if (!buffer || buffer.updating || this.mediaSource.readyState === 'closed') {
      return;
    }
    const item = this.queue.shift();
    if (item) {
      try {
        if (item.kind === 'append') {
          buffer.appendBuffer(item.bytes);
        } else if (item.kind === 'offset') {
          buffer.timestampOffset = item.seconds;
          this.pump();
        } else {
          buffer.remove(item.start, item.end);
        }
      } catch (e) {
        if (e.name === 'QuotaExceededError' && item.kind === 'append') {
          this.queue.unshift(item);
          this.evict(true);
          return;
        }
        this.fail('The clip could not be buffered', e.message);
      }
      return;
    }
    if (this.endReceived && !this.endOfStreamCalled && this.mediaSource.readyState === 'open') {
      this.endOfStreamCalled = true;
      this.mediaSource.endOfStream();
    }
    this.evict(false);
    this.tick();
  }

  /** Drops what lies well behind the playing position, so a long clip fits the browser's quota. */
  evict(urgent) {
    const buffered = this.sourceBuffer.buffered;
    if (buffered.length === 0) {
      return;
    }
    const keep = urgent ? 2 : KEEP_BEHIND_S;
    const until = this.video.currentTime - keep;
    if (until > buffered.start(0) + 1) {
      this.queue.unshift({ kind: 'remove', start: 0, end: until });
      const fromNs = until * 1e9;
      this.fragments = this.fragments.filter((f) => f.startNs >= fromNs);
      this.pump();
    }
  }

  /** Seconds buffered ahead of the playing position, in the range that holds it. */
  bufferedAhead() {
    const buffered = this.video.buffered;
    const t = this.video.currentTime;
    for (let i = 0; i < buffered.length; i++) {
      if (buffered.start(i) <= t + 0.3 && t < buffered.end(i)) {
        return buffered.end(i) - t;
      }
    }
    return 0;
  }

  /** All the clip after the playing position is buffered (the stream ended, nothing left to append). */
  allBuffered() {
    return this.endReceived && this.queue.length === 0 && this.sourceBuffer && !this.sourceBuffer.updating;
  }

  // ----- playback -----

  /** The least held ahead before playing: one fragment, or what is left of the clip. */
  startThreshold() {
    const fragment = this.accept ? this.accept.fragmentDurationNs / 1e9 : 1;
    const remaining = this.info.durationNs / 1e9 - this.video.currentTime;
    return Math.min(fragment, Math.max(0, remaining - 0.2));
  }

  /**
   * True once playing from here cannot overtake the deadlines: the newest fragment, shown at
   * (its presentation time - the position) from now, is due no later than that. Later fragments
   * are each due one round after it, as they are shown one round after it.
   */
  deadlinesAllowStart() {
    if (!this.lastData || !this.accept) {
      return false;
    }
    const streamClockNs = (performance.now() - this.acceptAt) * 1e6;
    const showInNs = this.lastData.presentationNs - this.video.currentTime * 1e9;
    return streamClockNs + showInNs >= this.lastData.deadlineNs;
  }

  /**
   * After RESUME the next fragment is read in the next round and due two rounds after that: as
   * if it had arrived with that deadline, playing waits until what is held covers the wait.
   */
  expectAfterResume() {
    const buffered = this.video.buffered;
    if (!this.accept || buffered.length === 0) {
      return;
    }
    const round = this.accept.fragmentDurationNs;
    this.lastData = {
      deadlineNs: (performance.now() - this.acceptAt) * 1e6 + 3 * round,
      presentationNs: buffered.end(buffered.length - 1) * 1e9,
    };
  }

  tick() {
    if (!this.info || this.info.kind !== 'continuous') {
      return;
    }
    const ahead = this.bufferedAhead();
    if (this.state === 'buffering' && this.wantPlay
        && (this.allBuffered() || ahead >= this.startThreshold() && this.deadlinesAllowStart())) {
      this.play();
    }
    this.render(ahead);
  }

  play() {
    this.setState('playing');
    this.video.play().catch((e) => {
      if (e.name === 'NotAllowedError') {
        this.setState('ready');
      } else if (e.name !== 'AbortError') {
        this.fail('The clip could not play', e.message);
      }
    });
  }

  /** The user's play: resumes the stream on the server if it was paused there. */
  userPlay() {
    if (['rejected', 'error', 'unsupported', 'loading', 'idle'].includes(this.state)) {
      return;
    }
    this.wantPlay = true;
    if (this.state === 'ended' || this.video.ended) {
      this.seek(0);
      return;
    }
    if (this.pausedOnServer) {
      this.send(P.encodeResume());
      this.pausedOnServer = false;
      this.log('RESUME');
      this.expectAfterResume();
    }
    this.setState('buffering');
    this.tick();
  }

  userPause() {
    this.wantPlay = false;
    this.video.pause();
    if (this.socket && this.accept && !this.endReceived && !this.pausedOnServer) {
      this.send(P.encodePause());
      this.pausedOnServer = true;
      this.log('PAUSE');
    }
    if (!['rejected', 'error', 'unsupported', 'connecting'].includes(this.state)) {
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
   * Seeks: within what is buffered, the browser just moves; elsewhere the server is asked with
   * SEEK (or, when the stream has ended, a new OPEN at the position) and DATA from before it is
   * dropped until the fragment that answers it arrives.
   */
  seek(seconds) {
    if (!this.info || !this.accept && this.state !== 'error') {
      return;
    }
    const duration = this.info.durationNs / 1e9;
    const target = Math.min(Math.max(0, seconds), Math.max(0, duration - 0.05));
    if (this.isBuffered(target)) {
      this.video.currentTime = target;
      this.log(`seek to ${target.toFixed(1)} s (buffered)`);
      if (this.wantPlay) {
        this.setState('buffering');
      }
      this.tick();
      return;
    }
    this.queue = this.queue.filter((item) => item.kind === 'remove');
    this.video.currentTime = target;
    if (this.socket && this.accept && !this.endReceived) {
      this.seeksSent++;
      this.lastData = null;
      this.send(P.encodeSeek(Math.round(target * 1e9)));
      this.log(`SEEK to ${target.toFixed(1)} s`);
      if (this.pausedOnServer && this.wantPlay) {
        this.send(P.encodeResume());
        this.pausedOnServer = false;
      }
      this.setState(this.wantPlay ? 'buffering' : 'paused');
    } else {
      this.connect(Math.round(target * 1e9));
    }
  }

  isBuffered(seconds) {
    const buffered = this.video.buffered;
    for (let i = 0; i < buffered.length; i++) {
      const reachesEnd = this.allBuffered() && buffered.end(i) >= this.info.durationNs / 1e9 - 0.3;
      if (buffered.start(i) <= seconds && (seconds + 1 <= buffered.end(i) || reachesEnd && seconds < buffered.end(i))) {
        return true;
      }
    }
    return false;
  }

  /** Where a new stream should start: the playing position. */
  resumeAtNs() {
    return Math.round(this.video.currentTime * 1e9);
  }

  // ----- what a person sees -----

  bindControls() {
    const video = this.video;
    $('play').addEventListener('click', () => this.togglePlay());
    $('big-play').addEventListener('click', () => {
      this.wantPlay = true;
      this.play();
    });
    video.addEventListener('click', () => this.togglePlay());
    video.addEventListener('playing', () => {
      if (this.latency && this.latency.picture === null) {
        this.latency.picture = performance.now() - this.openSentAt;
        this.log(`playing after ${this.latency.picture.toFixed(0)} ms`);
      }
    });
    video.addEventListener('waiting', () => {
      if (this.state === 'playing' && !video.seeking && !this.allBuffered()) {
        this.stats.stalls++;
        this.stalledSinceSample = true;
        this.log(`stalled at ${video.currentTime.toFixed(1)} s: waiting for data`, true);
        this.setState('buffering');
      }
    });
    video.addEventListener('ended', () => {
      this.setState('ended');
      this.log('the clip ended');
    });
    video.addEventListener('error', () => {
      const error = video.error;
      this.fail('The clip could not be decoded', error ? `${error.message || 'media error'} (code ${error.code})`
        : 'media error');
    });
    const seek = $('seek');
    seek.addEventListener('input', () => {
      this.dragging = true;
      $('time').textContent = `${formatTime(Number(seek.value))} / ${formatTime(this.info.durationNs / 1e9)}`;
    });
    seek.addEventListener('change', () => {
      this.dragging = false;
      this.seek(Number(seek.value));
    });
    const volume = $('volume');
    const saved = Number(localStorage.getItem('rondo.volume') ?? '1');
    video.volume = Number.isFinite(saved) ? Math.min(1, Math.max(0, saved)) : 1;
    video.muted = localStorage.getItem('rondo.muted') === 'true';
    volume.value = String(video.volume);
    volume.addEventListener('input', () => {
      video.volume = Number(volume.value);
      video.muted = video.volume === 0;
    });
    $('mute').addEventListener('click', () => {
      video.muted = !video.muted;
    });
    video.addEventListener('volumechange', () => {
      this.stage.classList.toggle('is-muted', video.muted || video.volume === 0);
      localStorage.setItem('rondo.volume', String(video.volume));
      localStorage.setItem('rondo.muted', String(video.muted));
    });
    this.stage.classList.toggle('is-muted', video.muted);
    $('fullscreen').addEventListener('click', () => this.toggleFullscreen());
    $('overlay-retry').addEventListener('click', () => {
      if (this.info && this.info.kind === 'continuous' && this.profile) {
        this.connect(this.resumeAtNs());
      } else {
        location.reload();
      }
    });
    document.addEventListener('keydown', (event) => {
      if (event.target instanceof HTMLInputElement && event.target.type !== 'range' || event.ctrlKey || event.metaKey) {
        return;
      }
      const keys = {
        ' ': () => this.togglePlay(),
        k: () => this.togglePlay(),
        ArrowLeft: () => this.seek(video.currentTime - 5),
        ArrowRight: () => this.seek(video.currentTime + 5),
        m: () => { video.muted = !video.muted; },
        f: () => this.toggleFullscreen(),
      };
      const action = keys[event.key];
      if (action) {
        event.preventDefault();
        action();
      }
    });
    let idleTimer = null;
    this.stage.addEventListener('pointermove', () => {
      this.stage.classList.remove('idle');
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => this.stage.classList.add('idle'), 2500);
    });
    window.addEventListener('pagehide', () => this.closeSocket());
    window.addEventListener('error', (event) => this.log(`page error: ${event.message}`, true));
    window.addEventListener('unhandledrejection', (event) => this.log(`page error: ${event.reason}`, true));
  }

  toggleFullscreen() {
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else if (this.stage.requestFullscreen) {
      this.stage.requestFullscreen().catch((e) => this.log(`full screen refused: ${e.message}`, true));
    }
  }

  setState(state) {
    this.state = state;
    this.stage.dataset.state = state;
    $('stat-state').textContent = state;
    $('big-play').hidden = state !== 'ready';
    const playing = state === 'playing' || state === 'buffering' && this.wantPlay;
    this.stage.classList.toggle('is-playing', playing);
    $('play').setAttribute('aria-label', playing ? 'Pause' : 'Play');
    $('play').title = playing ? 'Pause (space)' : 'Play (space)';
    if (state !== 'playing' && state !== 'ready' && !this.video.paused && state !== 'ended') {
      this.video.pause();
    }
  }

  render(ahead) {
    const duration = this.info.durationNs / 1e9;
    const now = this.video.currentTime;
    if (!this.dragging) {
      $('seek').value = String(now);
      $('time').textContent = `${formatTime(now)} / ${formatTime(duration)}`;
    }
    const capacity = Math.max(4, 3 * (this.accept ? this.accept.fragmentDurationNs / 1e9 : 1));
    $('buffer-fill').style.width = `${Math.min(100, (ahead / capacity) * 100).toFixed(1)}%`;
    $('buffer-text').textContent = `${ahead.toFixed(1)} s`;
    this.history.push({ ahead, stall: this.stalledSinceSample });
    this.stalledSinceSample = false;
    if (this.history.length > CHART_SAMPLES) {
      this.history.shift();
    }
    this.drawHistory();
    const stops = [];
    const buffered = this.video.buffered;
    for (let i = 0; i < buffered.length; i++) {
      const from = (buffered.start(i) / duration) * 100;
      const to = (buffered.end(i) / duration) * 100;
      stops.push(`transparent ${from}%`, `rgba(255,255,255,.55) ${from}%`, `rgba(255,255,255,.55) ${to}%`,
        `transparent ${to}%`);
    }
    $('buffered').style.background = stops.length ? `linear-gradient(to right, ${stops.join(', ')})` : 'none';
    const since = performance.now() - RATE_WINDOW_MS;
    this.received = this.received.filter((r) => r.at >= since);
    const windowBytes = this.received.reduce((sum, r) => sum + r.bytes, 0);
    $('stat-rate').textContent = this.socket ? formatRate(windowBytes / (RATE_WINDOW_MS / 1000)) : '\u2013';
    $('stat-bytes').textContent = formatBytes(this.stats.bytes);
    $('stat-fragments').textContent = String(this.stats.fragments);
    $('stat-glitches').textContent = String(this.stats.glitches);
    $('stat-stalls').textContent = String(this.stats.stalls);
    if (this.latency) {
      const parts = [`accept ${this.latency.accept.toFixed(0)} ms`, `first data ${this.latency.firstData.toFixed(0)} ms`];
      if (this.latency.picture !== null) {
        parts.unshift(`${this.latency.picture.toFixed(0)} ms to picture`);
      }
      $('stat-latency').textContent = parts.join(', ');
    }
  }

  /** The buffer level over the last minute, newest on the right, with each stall as a red line. */
  drawHistory() {
    const canvas = $('buffer-chart');
    const width = canvas.clientWidth;
    if (width === 0) {
      return;
    }
    const scale = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * scale)) {
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(56 * scale);
    }
    const g = canvas.getContext('2d');
    g.setTransform(scale, 0, 0, scale, 0, 0);
    const height = 56;
    g.clearRect(0, 0, width, height);
    const top = Math.max(4, ...this.history.map((h) => h.ahead));
    const step = width / (CHART_SAMPLES - 1);
    const x0 = width - (this.history.length - 1) * step;
    const y = (ahead) => height - 2 - (ahead / top) * (height - 14);
    g.strokeStyle = '#e3e6ec';
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(0, height - 1.5);
    g.lineTo(width, height - 1.5);
    g.stroke();
    g.fillStyle = '#5d6678';
    g.font = '10px system-ui, sans-serif';
    g.fillText(`${top.toFixed(0)} s`, 2, 10);
    if (this.history.length < 2) {
      return;
    }
    g.beginPath();
    g.moveTo(x0, height - 2);
    this.history.forEach((h, i) => g.lineTo(x0 + i * step, y(h.ahead)));
    g.lineTo(width, height - 2);
    g.closePath();
    g.fillStyle = 'rgba(47, 111, 228, .18)';
    g.fill();
    g.beginPath();
    this.history.forEach((h, i) => (i === 0 ? g.moveTo : g.lineTo).call(g, x0 + i * step, y(h.ahead)));
    g.strokeStyle = '#2f6fe4';
    g.lineWidth = 1.5;
    g.stroke();
    g.strokeStyle = '#c23b3b';
    this.history.forEach((h, i) => {
      if (h.stall) {
        g.beginPath();
        g.moveTo(x0 + i * step, 12);
        g.lineTo(x0 + i * step, height);
        g.stroke();
      }
    });
  }

  renderCrumbs() {
    const crumbs = $('crumbs');
    crumbs.textContent = '';
    if (!this.name) {
      return;
    }
    const parts = this.name.split('/').filter(Boolean);
    let path = '/';
    parts.forEach((part, i) => {
      crumbs.append(' / ');
      if (i < parts.length - 1) {
        path += `${part}/`;
        const link = document.createElement('a');
        link.href = pathOf(path);
        link.textContent = part;
        crumbs.append(link);
      } else {
        crumbs.append(part);
      }
    });
  }

  show(title, text, { detail = '', retry = false, link = null } = {}) {
    $('overlay-title').textContent = title;
    $('overlay-text').textContent = text;
    $('overlay-detail').textContent = detail;
    $('overlay-countdown').textContent = '';
    $('overlay-retry').hidden = !retry;
    const anchor = $('overlay-link');
    anchor.hidden = !link;
    if (link) {
      [anchor.href, anchor.textContent] = link;
    }
    $('overlay').hidden = false;
  }

  hideOverlay() {
    $('overlay').hidden = true;
  }

  startCountdown(seconds, then) {
    this.stopCountdown();
    let left = seconds;
    const paint = () => {
      $('overlay-countdown').textContent = `Trying again in ${left} s`;
    };
    paint();
    this.countdown = setInterval(() => {
      left--;
      if (left <= 0) {
        this.stopCountdown();
        then();
      } else {
        paint();
      }
    }, 1000);
  }

  stopCountdown() {
    clearInterval(this.countdown);
    this.countdown = null;
  }

  unsupported(text) {
    this.setState('unsupported');
    this.log(text, true);
    this.show('This browser cannot play this clip', text, { link: [pathOf(this.name), 'Download the file'] });
  }

  fail(title, text, retry = false) {
    this.stopCountdown();
    this.closeSocket();
    this.setState('error');
    this.log(`${title}: ${text}`, true);
    this.show(title, text, { retry });
  }

  log(text, bad = false) {
    const list = $('log');
    const item = document.createElement('li');
    if (bad) {
      item.className = 'bad';
    }
    const when = document.createElement('time');
    when.textContent = this.video && this.video.currentTime ? `${this.video.currentTime.toFixed(1)} s` : '0.0 s';
    item.append(when, text);
    list.append(item);
    while (list.children.length > 60) {
      list.firstElementChild.remove();
    }
    list.scrollTop = list.scrollHeight;
  }
}

const player = new Player(new URLSearchParams(location.search).get('src'));
window.rondoPlayer = player;
player.start().catch((e) => player.fail('The player failed', e.message));
