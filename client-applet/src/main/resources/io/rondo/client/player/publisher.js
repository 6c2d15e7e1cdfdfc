// A recording published over the WebSocket binding (docs/stream-protocol.md, Publishing): PUBLISH,
// then the container's bytes in MEDIA frames of at most MAX_MEDIA_BYTES each, then CLOSE; the
// server answers ACCEPT or REJECT, tells what is durable with DURABLE once a round, and ends with
// END (or ERROR). This keeps the publisher's side of that exchange; the socket and the encoder are
// the record page's. The socket is anything with isOpen, send(bytes) and close().

import * as P from './protocol.js';

/** The container's bytes as MEDIA frames, each at most MAX_MEDIA_BYTES of them, in order. */
export function mediaFrames(bytes) {
  const frames = [];
  for (let at = 0; at < bytes.length; at += P.MAX_MEDIA_BYTES) {
    frames.push(P.encodeMedia(bytes.subarray(at, Math.min(bytes.length, at + P.MAX_MEDIA_BYTES))));
  }
  return frames;
}

/**
 * The bits a second to declare in PUBLISH for an encoder asked for bitsPerSecond: twice as much,
 * since a browser's encoder overshoots its target at the start and on busy scenes, and the server
 * ends a publisher that sends faster than it declared.
 */
export function peakFor(bitsPerSecond) {
  return Math.round(2 * bitsPerSecond);
}

export class Publication {
  /** 'publishing' (PUBLISH sent), 'recording', 'finishing' (CLOSE sent), 'ended', 'refused' or 'failed'. */
  state = 'publishing';
  accept = null;
  /** The latest DURABLE: { fragments, durableNs, bytesReceived }; null before the first. */
  durable = null;
  /** MEDIA bytes sent so far. */
  bytesSent = 0;

  constructor(socket) {
    this.socket = socket;
  }

  /** Sends PUBLISH: the name (without a leading '/'), 'webm' or 'mp4', the peak bit rate and a publish token. */
  publish(objectName, container, peakBitsPerSecond, token) {
    this.socket.send(P.encodePublish(objectName.replace(/^\/+/, ''), container, peakBitsPerSecond, token));
  }

  /** True while the server takes MEDIA. */
  get recording() {
    return this.state === 'recording';
  }

  /** Sends the encoder's bytes (a Uint8Array) as MEDIA frames; nothing once the recording is not taking them. */
  send(bytes) {
    if (!this.recording || !this.socket.isOpen || bytes.length === 0) {
      return;
    }
    for (const frame of mediaFrames(bytes)) {
      this.socket.send(frame);
    }
    this.bytesSent += bytes.length;
  }

  /** Ends the recording with CLOSE: the server writes the last round, sends a last DURABLE, then END. */
  finish() {
    if (this.recording && this.socket.isOpen) {
      this.socket.send(P.encodeClose());
      this.state = 'finishing';
    }
  }

  /**
   * Takes a frame from the server and says what it means for the page: { kind: 'accepted' },
   * { kind: 'refused', reason, text, message }, { kind: 'durable' }, { kind: 'ended' } or
   * { kind: 'failed', text }.
   */
  received(frame) {
    switch (frame.type) {
      case 'ACCEPT':
        this.accept = frame;
        this.state = 'recording';
        return { kind: 'accepted' };
      case 'REJECT': {
        this.state = 'refused';
        const reason = P.RejectReason[frame.reason];
        return { kind: 'refused', reason: reason.name, text: reason.text, message: frame.message };
      }
      case 'DURABLE':
        this.durable = frame;
        return { kind: 'durable' };
      case 'END':
        this.state = 'ended';
        return { kind: 'ended' };
      case 'ERROR':
        this.state = 'failed';
        return { kind: 'failed', text: `${frame.message} (${frame.codeName})` };
      default:
        this.state = 'failed';
        return { kind: 'failed', text: `the server sent ${frame.type}, which a publisher does not expect` };
    }
  }

  /** The connection closed: a failure unless the recording had ended or been refused. */
  lost(code) {
    if (this.state === 'ended' || this.state === 'refused' || this.state === 'failed') {
      return null;
    }
    this.state = 'failed';
    return { kind: 'failed', text: `the connection closed (code ${code}) before the server ended the recording` };
  }
}
