// HlsTest's page: hls.js (already loaded as window.Hls) plays one playlist in a muted <video>, and
// window.hlsTest keeps what a person would notice (stalls, errors, the end) and when each part or
// segment arrived, for the test to read through WebDriver.
window.startHlsTest = function (url, lowLatency) {
  document.body.textContent = '';
  const video = document.createElement('video');
  video.id = 'video';
  video.muted = true;
  video.autoplay = true;
  video.playsInline = true;
  document.body.appendChild(video);
  const state = {
    supported: Hls.isSupported(), version: Hls.version, playing: false, ended: false, waiting: [],
    errors: [], stalls: [], loads: [], log: [], currentTime: 0, duration: 0
  };
  window.hlsTest = state;
  const note = (line) => state.log.push(Math.round(performance.now()) + ' ms ' + line);
  const hls = new Hls({ lowLatencyMode: lowLatency, debug: false, enableWorker: true });
  window.hls = hls;
  hls.on(Hls.Events.ERROR, (event, data) => {
    const what = data.type + '/' + data.details + (data.fatal ? ' (fatal)' : '') + ' at ' + video.currentTime.toFixed(3);
    // hls.js reports a stall of the media as a non-fatal error: a stall, and an error all the same.
    if (data.details === Hls.ErrorDetails.BUFFER_STALLED_ERROR) {
      state.stalls.push(what);
    }
    state.errors.push(what);
    note('error ' + what);
  });
  hls.on(Hls.Events.FRAG_LOADED, (event, data) => {
    const frag = data.frag;
    const part = data.part;
    const stats = part ? part.stats : frag.stats;
    const startMs = frag.programDateTime === null ? null
      : frag.programDateTime + (part ? part.fragOffset : 0) * 1000;
    state.loads.push({
      sn: frag.sn, part: part ? part.index : -1, duration: part ? part.duration : frag.duration,
      programDateTimeMs: startMs, receivedMs: performance.timeOrigin + stats.loading.end
    });
  });
  hls.on(Hls.Events.MANIFEST_PARSED, () => note('manifest parsed'));
  video.addEventListener('playing', () => { state.playing = true; note('playing'); });
  video.addEventListener('waiting', () => {
    // Before the first frame plays the player is starting, not stalling.
    if (state.playing && !state.ended) {
      state.waiting.push(video.currentTime.toFixed(3));
      note('waiting at ' + video.currentTime.toFixed(3));
    }
  });
  video.addEventListener('ended', () => { state.ended = true; note('ended'); });
  video.addEventListener('timeupdate', () => {
    state.currentTime = video.currentTime;
    state.duration = video.duration;
  });
  hls.loadSource(url);
  hls.attachMedia(video);
  return state.supported;
};
