// What a person sees: the stage's state, the seek bar and buffer bar, the stats panel with its
// chart of the buffer level, the overlay for messages and the log. Painting only: what to show is
// the player's.

import { hasVideo, pathOf } from './library.js';
import { formatBitRate, formatBytes, formatByteRate, formatTime } from './units.js';

/** The page's element of that id. */
export const $ = (id) => document.getElementById(id);

/** Seconds at the full scale of the buffer bar and chart, at least. */
const SCALE_MIN_S = 4;
const CHART_HEIGHT = 56;
const LOG_LINES = 60;

export class View {
  /** True while the seek bar is dragged: the position does not move it. */
  dragging = false;
  #chartSamples;
  #history = [];
  #stalledSinceSample = false;
  #countdown = null;

  /** chartSamples: how many render() calls the buffer chart spans. */
  constructor(chartSamples) {
    this.video = $('video');
    this.stage = $('stage');
    this.#chartSamples = chartSamples;
  }

  title(name) {
    const title = name.split('/').pop();
    $('title').textContent = title;
    document.title = `${title} - Rondo`;
  }

  /**
   * The clip's type, length, bit rate and size under its title; its length on the seek bar; and
   * the audio layout (a bar of controls, no picture) for a clip without a video track.
   */
  details(info) {
    this.stage.classList.toggle('audio-only', !hasVideo(info));
    const seconds = info.durationNs / 1e9;
    $('subtitle').textContent = `${info.mseType} \u00b7 ${formatTime(seconds)} \u00b7 `
      + `${formatBitRate(info.bitsPerSecond)} \u00b7 ${formatBytes(info.size)}`;
    $('seek').max = String(seconds);
  }

  /** Under the title of a live object: its type, and that it is being recorded (its length grows). */
  recording(info) {
    $('subtitle').textContent = `${info.mseType} \u00b7 being recorded`;
  }

  profile(profile) {
    $('stat-profile').textContent = `${formatByteRate(profile.rate)}, ${formatBytes(profile.buffer)} buffer `
      + `(${profile.source})`;
  }

  stream(accept) {
    $('stat-stream').textContent = `#${accept.streamId}, ${accept.codecs}, `
      + `${(accept.fragmentDurationNs / 1e9).toFixed(1)} s fragments`;
    $('stat-bitrate').textContent = formatBitRate(accept.bitsPerSecond);
  }

  /** In the panel: the browser plays the HLS playlist at url itself, without a stream or a profile of the player's. */
  nativeHls(url) {
    $('stat-stream').textContent = `HLS ${url}, played by the browser`;
    $('stat-profile').textContent = 'the browser\'s own';
  }

  /** The state on the stage and in the panel; the play button shows pause while playing is wanted. */
  state(state, playing) {
    this.stage.dataset.state = state;
    $('stat-state').textContent = state;
    $('big-play').hidden = state !== 'ready';
    this.stage.classList.toggle('is-playing', playing);
    $('play').setAttribute('aria-label', playing ? 'Pause' : 'Play');
    $('play').title = playing ? 'Pause (space)' : 'Play (space)';
  }

  /** How many times the stream was picked up again after a lost connection, and the longest gap. */
  reconnects(text) {
    $('stat-reconnects').textContent = text;
  }

  /** The time beside the seek bar. */
  time(positionS, durationS) {
    $('time').textContent = `${formatTime(positionS)} / ${formatTime(durationS)}`;
  }

  /** A stall, drawn as a red line at the chart's next sample. */
  stalled() {
    this.#stalledSinceSample = true;
  }

  /**
   * Paints a tick: the position, the buffer level (aheadS, the bar full at three fragments of
   * fragmentS), what is held on the seek bar (ranges), the receive rate (null while no stream is
   * connected) and the stats.
   */
  render({ positionS, durationS, aheadS, fragmentS, ranges, receiveBitsPerSecond, stats, live = null }) {
    $('seek').max = String(durationS);
    if (!this.dragging) {
      $('seek').value = String(positionS);
      this.time(positionS, durationS);
    }
    this.#live(live);
    const capacity = Math.max(SCALE_MIN_S, 3 * fragmentS);
    $('buffer-fill').style.width = `${Math.min(100, (aheadS / capacity) * 100).toFixed(1)}%`;
    $('buffer-text').textContent = `${aheadS.toFixed(1)} s`;
    this.#history.push({ ahead: aheadS, stall: this.#stalledSinceSample });
    this.#stalledSinceSample = false;
    if (this.#history.length > this.#chartSamples) {
      this.#history.shift();
    }
    this.#drawHistory();
    const stops = ranges.flatMap(({ start, end }) => {
      const from = (start / durationS) * 100;
      const to = (end / durationS) * 100;
      return [`transparent ${from}%`, `rgba(255,255,255,.55) ${from}%`, `rgba(255,255,255,.55) ${to}%`,
        `transparent ${to}%`];
    });
    $('buffered').style.background = stops.length ? `linear-gradient(to right, ${stops.join(', ')})` : 'none';
    $('stat-rate').textContent = receiveBitsPerSecond === null ? '\u2013' : formatBitRate(receiveBitsPerSecond);
    $('stat-bytes').textContent = formatBytes(stats.bytes);
    $('stat-fragments').textContent = String(stats.fragments);
    $('stat-glitches').textContent = String(stats.glitches);
    $('stat-stalls').textContent = String(stats.stalls);
    if (stats.latency) {
      const { accept, firstData, picture } = stats.latency;
      const parts = [`accept ${accept.toFixed(0)} ms`, `first data ${firstData.toFixed(0)} ms`];
      if (picture !== null) {
        parts.unshift(`${picture.toFixed(0)} ms to picture`);
      }
      $('stat-latency').textContent = parts.join(', ');
    }
  }

  /**
   * The LIVE badge while the object is being recorded (live not null): lit at the live edge, else
   * with the delay behind it, and a click goes live.
   */
  #live(live) {
    const badge = $('live-badge');
    badge.hidden = live === null;
    if (live) {
      badge.classList.toggle('behind', !live.atEdge);
      $('live-delay').textContent = live.atEdge ? '' : `\u2212${formatTime(live.delayS)}`;
      badge.setAttribute('aria-label', live.atEdge ? 'Live' : `${formatTime(live.delayS)} behind live: go live`);
    }
  }

  /** The buffer level over the last minute, newest on the right, with each stall as a red line. */
  #drawHistory() {
    const canvas = $('buffer-chart');
    const width = canvas.clientWidth;
    if (width === 0) {
      return;
    }
    const scale = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * scale)) {
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(CHART_HEIGHT * scale);
    }
    const g = canvas.getContext('2d');
    g.setTransform(scale, 0, 0, scale, 0, 0);
    const height = CHART_HEIGHT;
    const history = this.#history;
    g.clearRect(0, 0, width, height);
    const top = Math.max(SCALE_MIN_S, ...history.map((h) => h.ahead));
    const step = width / (this.#chartSamples - 1);
    const x0 = width - (history.length - 1) * step;
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
    if (history.length < 2) {
      return;
    }
    g.beginPath();
    g.moveTo(x0, height - 2);
    history.forEach((h, i) => g.lineTo(x0 + i * step, y(h.ahead)));
    g.lineTo(width, height - 2);
    g.closePath();
    g.fillStyle = 'rgba(47, 111, 228, .18)';
    g.fill();
    g.beginPath();
    history.forEach((h, i) => (i === 0 ? g.moveTo : g.lineTo).call(g, x0 + i * step, y(h.ahead)));
    g.strokeStyle = '#2f6fe4';
    g.lineWidth = 1.5;
    g.stroke();
    g.strokeStyle = '#c23b3b';
    history.forEach((h, i) => {
      if (h.stall) {
        g.beginPath();
        g.moveTo(x0 + i * step, 12);
        g.lineTo(x0 + i * step, height);
        g.stroke();
      }
    });
  }

  /** The clip's folders as links, above the player. */
  crumbs(name) {
    const crumbs = $('crumbs');
    crumbs.textContent = '';
    if (!name) {
      return;
    }
    const parts = name.split('/').filter(Boolean);
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

  /** A message over the stage, with details, a "Retry now" button and a link [href, text] if given. */
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

  /** Counts seconds down on the overlay, then calls then(). */
  startCountdown(seconds, then) {
    this.stopCountdown();
    let left = seconds;
    const paint = () => {
      $('overlay-countdown').textContent = `Trying again in ${left} s`;
    };
    paint();
    this.#countdown = setInterval(() => {
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
    clearInterval(this.#countdown);
    this.#countdown = null;
  }

  /** A line of the log, stamped with the playing position; bad lines stand out. */
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
    while (list.children.length > LOG_LINES) {
      list.firstElementChild.remove();
    }
    list.scrollTop = list.scrollHeight;
  }
}
