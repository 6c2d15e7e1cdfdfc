// Media Source Extensions: the clip's MediaSource (or ManagedMediaSource, media-source.js) behind
// the video element, and its SourceBuffer fed one append, offset or removal at a time (a
// SourceBuffer takes one change while it is not updating). What to append and what to drop is the
// player's; this only queues and feeds, and passes on what a ManagedMediaSource says: whether it
// wants media now, and the ranges removed from its SourceBuffer, which it may evict by itself.

import { rangesOf } from './buffer.js';
import { attachMediaSource, MANAGED } from './media-source.js';

export class SourceFeed {
  #video;
  #mediaSource = null;
  #sourceBuffer = null;
  #queue = [];
  #idle;
  #quotaExceeded;
  #failed;
  #streamingChanged;
  #evicted;
  #streaming = true;

  /**
   * idle() is called whenever the queue runs empty, quotaExceeded() when the browser refuses an
   * append for want of room (the append is retried next), failed(title, text) on any other fault;
   * from a ManagedMediaSource, streaming(wanted) when it starts or stops wanting media, and
   * evicted(removed) with the ranges ([{ start, end }] seconds) removed from its SourceBuffer, by the
   * browser itself or by remove().
   */
  constructor(video, { idle, quotaExceeded, failed, streaming, evicted }) {
    this.#video = video;
    this.#idle = idle;
    this.#quotaExceeded = quotaExceeded;
    this.#failed = failed;
    this.#streamingChanged = streaming;
    this.#evicted = evicted;
  }

  /**
   * Opens playback's MediaSource (media-source.js, choosePlayback) of durationS on the video element,
   * with the clip's HLS playlist as AirPlay's alternative if hls is given; resolves once it can take
   * buffers.
   */
  open(playback, durationS, hls) {
    return new Promise((resolve) => {
      const mediaSource = new playback.MediaSource();
      this.#mediaSource = mediaSource;
      mediaSource.addEventListener('sourceopen', () => {
        mediaSource.duration = durationS;
        resolve();
      }, { once: true });
      if (playback.kind === MANAGED) {
        mediaSource.addEventListener('startstreaming', () => this.#streamingNow(true));
        mediaSource.addEventListener('endstreaming', () => this.#streamingNow(false));
      }
      attachMediaSource(this.#video, mediaSource, playback, hls);
    });
  }

  /** False from a ManagedMediaSource's endstreaming to its next startstreaming; else true. */
  get streaming() {
    return this.#streaming;
  }

  #streamingNow(streaming) {
    this.#streaming = streaming;
    this.#streamingChanged(streaming);
  }

  get attached() {
    return this.#sourceBuffer !== null;
  }

  /** Adds the SourceBuffer for a MIME type with codecs; throws if the browser refuses it. */
  attach(type) {
    this.#sourceBuffer = this.#mediaSource.addSourceBuffer(type);
    this.#sourceBuffer.addEventListener('updateend', () => this.pump());
    this.#sourceBuffer.addEventListener('error', () => this.#failed('The clip could not be decoded',
      'The browser\'s decoder refused a fragment of this clip.'));
    this.#sourceBuffer.addEventListener('bufferedchange', (event) => {
      if (event.removedRanges && event.removedRanges.length > 0) {
        this.#evicted(rangesOf(event.removedRanges));
      }
    });
  }

  /** True for byte streams without timestamps (MP3), which are placed by an offset. */
  get placedByOffset() {
    return this.#sourceBuffer.mode === 'sequence';
  }

  append(bytes) {
    this.#queue.push({ kind: 'append', bytes });
  }

  /** Sets the media's duration (Infinity for a live object, which grows) before what is appended next. */
  duration(seconds) {
    this.#queue.push({ kind: 'duration', seconds });
  }

  /** Places what is appended next at seconds. */
  offset(seconds) {
    this.#queue.push({ kind: 'offset', seconds });
  }

  /** Removes start to end seconds before anything else queued. */
  remove(start, end) {
    this.#queue.unshift({ kind: 'remove', start, end });
    this.pump();
  }

  /** Forgets the appends (and offsets) not yet made: after a seek they are of the old position. */
  dropQueuedAppends() {
    this.#queue = this.#queue.filter((item) => item.kind === 'remove' || item.kind === 'duration');
  }

  /** Nothing queued and nothing being appended. */
  get settled() {
    return this.#queue.length === 0 && this.#sourceBuffer !== null && !this.#sourceBuffer.updating;
  }

  /** What the SourceBuffer holds, [{ start, end }] seconds. */
  get ranges() {
    return this.#sourceBuffer ? rangesOf(this.#sourceBuffer.buffered) : [];
  }

  /** Tells the MediaSource that no more media comes; false if it is not open to be told. */
  endOfStream() {
    if (this.#mediaSource.readyState !== 'open') {
      return false;
    }
    this.#mediaSource.endOfStream();
    return true;
  }

  /** Feeds the SourceBuffer the next queued change, or reports the queue idle. */
  pump() {
    const buffer = this.#sourceBuffer;
    if (!buffer || buffer.updating || this.#mediaSource.readyState === 'closed') {
      return;
    }
    const item = this.#queue.shift();
    if (!item) {
      this.#idle();
      return;
    }
    try {
      if (item.kind === 'append') {
        buffer.appendBuffer(item.bytes);
      } else if (item.kind === 'offset') {
        buffer.timestampOffset = item.seconds;
        this.pump();
      } else if (item.kind === 'duration') {
        this.#mediaSource.duration = item.seconds;
        this.pump();
      } else {
        buffer.remove(item.start, item.end);
      }
    } catch (e) {
      if (e.name === 'QuotaExceededError' && item.kind === 'append') {
        this.#queue.unshift(item);
        this.#quotaExceeded();
        return;
      }
      this.#failed('The clip could not be buffered', e.message);
    }
  }
}
