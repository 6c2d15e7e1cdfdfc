// One connection's stream, from OPEN to its close (docs/stream-protocol.md, State machine): what
// the server accepted and when (the stream's clock starts at ACCEPT), the SEEKs it has not yet
// answered, the newest fragment's promise, whether it ended and whether it is paused on the
// server. A new connection is a new Connection, so nothing of an older stream's carries over.
//
// The socket is anything with isOpen, send(bytes), close(), startReports(send) and stopReports():
// a StreamSocket in the page, a stand-in in the tests. Times are passed in (milliseconds,
// performance.now()).

import * as P from './protocol.js';

export class Connection {
  closed = false;
  openSentAtMs = 0;
  accept = null;
  acceptAtMs = 0;
  seeksSent = 0;
  discontinuitiesSeen = 0;
  endReceived = false;
  /** The MediaSource was told this stream's media ended. */
  endOfStreamSignalled = false;
  pausedOnServer = false;
  /** The newest fragment kept, { deadlineNs, presentationNs }, for the start rule; null after a SEEK. */
  newest = null;
  /** DATA fragment bytes received on this stream, dropped ones too (REPORT's bytesReceived). */
  streamBytes = 0;

  constructor(socket) {
    this.socket = socket;
  }

  /** Accepted and not ended: PAUSE, RESUME and SEEK still mean something to the server. */
  get streaming() {
    return !this.closed && this.accept !== null && !this.endReceived;
  }

  /** Sends a frame if the connection is open; a frame for a closed one is dropped. */
  send(bytes) {
    if (!this.closed && this.socket.isOpen) {
      this.socket.send(bytes);
    }
  }

  /**
   * Sends OPEN for objectName (without its leading '/') at startNs with the client profile; with
   * fromLive, startNs is how far behind the live edge to start. The player follows REDIRECT.
   */
  open(objectName, startNs, profile, nowMs, fromLive = false) {
    this.openSentAtMs = nowMs;
    this.send(P.encodeOpen(objectName.replace(/^\//, ''), Math.round(startNs), profile.rate, profile.buffer,
      { fromLive, followsRedirects: true }));
  }

  accepted(accept, nowMs) {
    this.accept = accept;
    this.acceptAtMs = nowMs;
  }

  /** The stream's clock at nowMs, ns since ACCEPT; null before it. */
  streamClockNs(nowMs) {
    return this.accept ? (nowMs - this.acceptAtMs) * 1e6 : null;
  }

  /**
   * Counts a DATA frame; true if it is to be kept, false while it still belongs to a position
   * before the newest SEEK (until as many DISCONTINUITY flags as SEEKs sent have come).
   */
  take(data) {
    this.streamBytes += data.fragment.byteLength;
    if (data.discontinuity) {
      this.discontinuitiesSeen++;
    }
    if (this.discontinuitiesSeen < this.seeksSent) {
      return false;
    }
    this.newest = { deadlineNs: data.deadlineNs, presentationNs: data.presentationNs };
    return true;
  }

  /** Milliseconds by which data came after its deadline at nowMs; not positive when on time. */
  lateByMs(data, nowMs) {
    return nowMs - this.acceptAtMs - data.deadlineNs / 1e6;
  }

  /**
   * Sends SEEK to positionNs (with fromLive, that far behind the live edge: 0 goes live); DATA is
   * dropped until the fragment that answers it.
   */
  seek(positionNs, fromLive = false) {
    this.seeksSent++;
    this.newest = null;
    this.send(P.encodeSeek(Math.round(positionNs), { fromLive }));
  }

  /** Sends PAUSE unless the stream is not streaming or already paused; true if it was sent. */
  pause() {
    if (!this.streaming || this.pausedOnServer) {
      return false;
    }
    this.send(P.encodePause());
    this.pausedOnServer = true;
    return true;
  }

  /** Sends RESUME if the stream is paused on the server; true if it was. */
  resume() {
    if (!this.pausedOnServer) {
      return false;
    }
    this.send(P.encodeResume());
    this.pausedOnServer = false;
    return true;
  }

  /** Sends REPORT every second: what held() says is held ahead of playback, and this stream's bytes. */
  startReports(held) {
    this.socket.startReports(() => {
      const { bufferedNs, bufferedBytes } = held();
      this.send(P.encodeReport(bufferedNs, bufferedBytes, this.streamBytes));
    });
  }

  ended() {
    this.endReceived = true;
    this.socket.stopReports();
  }

  /**
   * Closes the connection, first telling the server with CLOSE if a stream is running on it;
   * closing a closed connection does nothing.
   */
  close() {
    if (this.closed) {
      return;
    }
    this.socket.stopReports();
    if (this.socket.isOpen && this.streaming) {
      this.socket.send(P.encodeClose());
    }
    this.closed = true;
    this.socket.close();
  }
}
