// The record page: the browser's camera and microphone, encoded by MediaRecorder as WebM and
// published over the stream protocol's WebSocket binding (publisher.js), with what the server says
// is durable. The publish token is kept in localStorage, so it is pasted once per browser.

import { peakFor, Publication } from './publisher.js';
import { StreamSocket, streamUrl } from './stream.js';
import { formatBytes, formatTime } from './units.js';

const STREAM_PATH = '/stream';
/** MediaRecorder hands over what it has encoded this often: a few times a round. */
const TIMESLICE_MS = 250;
const AUDIO_BITS_PER_SECOND = 128_000;
const TOKEN_KEY = 'rondo.publishToken';
const LOG_LINES = 60;
const TYPES = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm'];

const $ = (id) => document.getElementById(id);

class RecordPage {
  publication = null;
  recorder = null;
  camera = null;
  socket = null;
  /** The encoder's chunks go out one after another, in the order it made them. */
  sending = Promise.resolve();

  start() {
    $('token').value = localStorage.getItem(TOKEN_KEY) ?? '';
    $('form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.record().catch((e) => this.fail(`could not start: ${e.message}`));
    });
    $('stop').addEventListener('click', () => this.stop());
    window.addEventListener('pagehide', () => this.socket?.close());
  }

  async record() {
    const name = $('name').value.trim().replace(/^\/+/, '');
    const token = $('token').value.trim();
    localStorage.setItem(TOKEN_KEY, token);
    const bitsPerSecond = Number($('bitrate').value);
    const mimeType = TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    if (!mimeType) {
      this.fail('this browser cannot record WebM');
      return;
    }
    this.busy(true);
    this.setState('asking for the camera');
    this.camera = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    $('preview').srcObject = this.camera;
    this.setState('connecting');
    const socket = new StreamSocket(streamUrl(location, STREAM_PATH));
    const publication = new Publication(socket);
    this.socket = socket;
    this.publication = publication;
    const peak = peakFor(bitsPerSecond + AUDIO_BITS_PER_SECOND);
    socket.listen({
      opened: () => {
        publication.publish(name, 'webm', peak, token);
        this.log(`PUBLISH ${name}: webm, peak ${(peak / 1e6).toFixed(1)} Mbit/s`);
      },
      frame: (frame) => this.onFrame(frame, name, mimeType, bitsPerSecond),
      badFrame: (e) => this.fail(`the server sent a frame this page cannot read: ${e.message}`),
      lost: (event) => {
        const outcome = publication.lost(event.code);
        if (outcome) {
          this.fail(outcome.text);
        }
        this.release();
      },
    });
  }

  onFrame(frame, name, mimeType, bitsPerSecond) {
    const outcome = this.publication.received(frame);
    switch (outcome.kind) {
      case 'accepted':
        this.log(`ACCEPT stream ${frame.streamId}: ${(frame.fragmentDurationNs / 1e9).toFixed(1)} s rounds`);
        this.encode(mimeType, bitsPerSecond, frame.fragmentDurationNs / 1e6);
        this.setState('recording');
        $('watch').href = `/player/?src=${encodeURIComponent(`/${name}`)}`;
        $('watch').hidden = false;
        $('stop').disabled = false;
        break;
      case 'refused':
        this.fail(`REJECT ${outcome.reason}: ${outcome.text}${outcome.message ? ` (${outcome.message})` : ''}`);
        break;
      case 'durable':
        $('durable').textContent = `${formatTime(frame.durableNs / 1e9)} (${(frame.durableNs / 1e9).toFixed(1)} s)`;
        $('fragments').textContent = String(frame.fragments);
        break;
      case 'ended':
        this.log(`END: ${formatTime((this.publication.durable?.durableNs ?? 0) / 1e9)} recorded`);
        this.setState('ended');
        this.release();
        break;
      default:
        this.fail(outcome.text);
    }
  }

  /**
   * Starts MediaRecorder, asked for a keyframe every round (roundMs), so that a viewer can join near
   * the live edge (a browser that does not know the option writes one at the start only); each
   * chunk it hands over goes out as MEDIA, in order.
   */
  encode(mimeType, bitsPerSecond, roundMs) {
    const recorder = new MediaRecorder(this.camera, {
      mimeType, videoBitsPerSecond: bitsPerSecond, audioBitsPerSecond: AUDIO_BITS_PER_SECOND,
      videoKeyFrameIntervalDuration: roundMs,
    });
    this.recorder = recorder;
    recorder.addEventListener('dataavailable', (event) => {
      const blob = event.data;
      this.sending = this.sending.then(async () => {
        this.publication.send(new Uint8Array(await blob.arrayBuffer()));
        $('sent').textContent = formatBytes(this.publication.bytesSent);
      });
    });
    recorder.addEventListener('stop', () => {
      this.sending = this.sending.then(() => this.publication.finish());
    });
    recorder.addEventListener('error', (event) => this.fail(`the encoder failed: ${event.error?.message ?? 'error'}`));
    recorder.start(TIMESLICE_MS);
    $('encoder').textContent = `${recorder.mimeType}, ${(bitsPerSecond / 1e6).toFixed(1)} Mbit/s`;
    this.log(`recording ${recorder.mimeType}`);
  }

  /** Stop: the encoder's last chunk goes out, then CLOSE; the server ends with END once it is durable. */
  stop() {
    $('stop').disabled = true;
    this.setState('finishing');
    if (this.recorder && this.recorder.state !== 'inactive') {
      this.recorder.stop();
    } else {
      this.publication?.finish();
    }
    this.camera?.getTracks().forEach((track) => track.stop());
  }

  /** The camera off and the form usable again. */
  release() {
    if (this.recorder && this.recorder.state !== 'inactive') {
      this.recorder.stop();
    }
    this.camera?.getTracks().forEach((track) => track.stop());
    $('stop').disabled = true;
    this.busy(false);
  }

  busy(yes) {
    for (const id of ['name', 'token', 'bitrate', 'start']) {
      $(id).disabled = yes;
    }
  }

  fail(text) {
    this.setState('failed');
    this.log(text, true);
    this.socket?.close();
    this.release();
  }

  setState(state) {
    $('state').textContent = state;
    $('stage').dataset.state = state;
  }

  log(text, bad = false) {
    const list = $('log');
    const item = document.createElement('li');
    item.className = bad ? 'bad' : '';
    item.textContent = text;
    list.append(item);
    while (list.children.length > LOG_LINES) {
      list.firstElementChild.remove();
    }
  }
}

const page = new RecordPage();
window.rondoRecorder = page;
page.start();
