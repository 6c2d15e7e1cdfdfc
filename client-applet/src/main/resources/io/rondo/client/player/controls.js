// What a person does: the buttons, the seek bar, the volume, the keys, and the video element's own
// events, each handed to the player or the view. What plays the clip is the Player, or, where the
// browser plays the clip's HLS playlist itself, a NativeHls (native-hls.js) that answers the same
// calls. Volume and mute are remembered in localStorage.

import { $ } from './view.js';

const IDLE_POINTER_MS = 2500;
const SEEK_STEP_S = 5;

/** Binds the page's controls and the video's events to what player() returns at each event, and to view. */
export function bindControls(player, view) {
  const { video, stage } = view;
  $('play').addEventListener('click', () => player().togglePlay());
  $('big-play').addEventListener('click', () => player().playClicked());
  video.addEventListener('click', () => player().togglePlay());
  video.addEventListener('playing', () => player().pictureShown());
  video.addEventListener('waiting', () => player().waiting());
  video.addEventListener('ended', () => player().clipEnded());
  video.addEventListener('error', () => {
    const error = video.error;
    player().fail('The clip could not be decoded', error ? `${error.message || 'media error'} (code ${error.code})`
      : 'media error');
  });
  const seek = $('seek');
  seek.addEventListener('input', () => {
    view.dragging = true;
    view.time(Number(seek.value), player().durationS);
  });
  seek.addEventListener('change', () => {
    view.dragging = false;
    player().seek(Number(seek.value));
  });
  bindVolume(video, stage, $('volume'), $('mute'));
  const toggleFullscreen = () => {
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else if (stage.requestFullscreen) {
      stage.requestFullscreen().catch((e) => view.log(`full screen refused: ${e.message}`, true));
    }
  };
  $('fullscreen').addEventListener('click', toggleFullscreen);
  $('overlay-retry').addEventListener('click', () => player().retry());
  $('live-badge').addEventListener('click', () => player().goLive());
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== 'range' || event.ctrlKey || event.metaKey) {
      return;
    }
    const keys = {
      ' ': () => player().togglePlay(),
      k: () => player().togglePlay(),
      ArrowLeft: () => player().seek(video.currentTime - SEEK_STEP_S),
      ArrowRight: () => player().seek(video.currentTime + SEEK_STEP_S),
      m: () => { video.muted = !video.muted; },
      f: toggleFullscreen,
      l: () => player().goLive(),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });
  let idleTimer = null;
  stage.addEventListener('pointermove', () => {
    stage.classList.remove('idle');
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => stage.classList.add('idle'), IDLE_POINTER_MS);
  });
  window.addEventListener('pagehide', () => player().leave());
  window.addEventListener('error', (event) => view.log(`page error: ${event.message}`, true));
  window.addEventListener('unhandledrejection', (event) => view.log(`page error: ${event.reason}`, true));
}

/**
 * Asks video to play: the state becomes 'ready' (the big play button) where the browser wants a
 * person's tap first, and a refusal for any other cause than a pause or seek fails the clip.
 */
export function askToPlay(video, player) {
  video.play().catch((e) => {
    if (e.name === 'NotAllowedError') {
      player.setState('ready');
    } else if (e.name !== 'AbortError') {
      player.fail('The clip could not play', e.message);
    }
  });
}

/** The volume slider and mute button, as the person last left them. */
function bindVolume(video, stage, volume, mute) {
  const saved = Number(localStorage.getItem('rondo.volume') ?? '1');
  video.volume = Number.isFinite(saved) ? Math.min(1, Math.max(0, saved)) : 1;
  video.muted = localStorage.getItem('rondo.muted') === 'true';
  volume.value = String(video.volume);
  volume.addEventListener('input', () => {
    video.volume = Number(volume.value);
    video.muted = video.volume === 0;
  });
  mute.addEventListener('click', () => {
    video.muted = !video.muted;
  });
  video.addEventListener('volumechange', () => {
    stage.classList.toggle('is-muted', video.muted || video.volume === 0);
    localStorage.setItem('rondo.volume', String(video.volume));
    localStorage.setItem('rondo.muted', String(video.muted));
  });
  stage.classList.toggle('is-muted', video.muted);
}
