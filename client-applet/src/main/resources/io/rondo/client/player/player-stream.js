// The stream half of the web player (player.js): opening a stream on a new connection, and what
// each frame the server sends does to the feed, the stats and the view, a live object's LIVE frames
// and "go live" among them. The stream's URL names its object (/stream/NAME), so a proxy in front
// of a cluster can route it; a REDIRECT is followed to the node it names, and a connection lost
// mid-stream is opened again after a backoff at the fragment after the playing one (reconnect.js).
// A ManagedMediaSource's wishes reach the server here too: PAUSE and RESUME as it stops and starts
// wanting media, SEEK for what it evicted. Player extends it with what is held, playback and what a
// person does; the fields it uses (info, profile, connection, feed, view, live, stats, fragments,
// video, wantPlay) are Player's.

import { Connection } from './connection.js';
import { refetchFromS } from './media-source.js';
import * as P from './protocol.js';
import { MAX_REDIRECTS, nextFragmentNs, objectStreamPath, Reconnector } from './reconnect.js';
import { StreamSocket, streamUrl } from './stream.js';
import { formatBytes } from './units.js';

/** States that show a message and wait for the person: playing does not go on by itself. */
export const STOPPED = ['rejected', 'error', 'unsupported'];

export class PlayerStream {
  reconnector = new Reconnector();
  reconnectTimer = null;
  /** The latest OPEN's start, which a REDIRECT sends on to another node. */
  opening = { startNs: 0, fromLive: false };
  fragmentDurationNs = 1e9;

  /**
   * Opens a stream at startNs (fromLive: that far behind the live edge) on a new connection, closing
   * the one before; at url, the WebSocket address a REDIRECT named, else this server's for the object.
   */
  connect(startNs, fromLive = false, url = null) {
    this.connection?.close();
    clearTimeout(this.reconnectTimer);
    this.view.hideOverlay();
    this.view.stopCountdown();
    this.setState(this.reconnector.resuming ? 'reconnecting' : 'connecting');
    this.opening = { startNs, fromLive };
    const socket = new StreamSocket(url ?? streamUrl(location, objectStreamPath(this.info.streamPath, this.name)));
    const connection = new Connection(socket);
    this.connection = connection;
    this.live.landing = fromLive;
    const current = () => this.connection === connection && !connection.closed;
    socket.listen({
      opened: () => {
        if (current()) {
          connection.open(this.name, startNs, this.profile, performance.now(), fromLive);
          this.log(`OPEN ${this.name} ${fromLive ? 'from live, ' : 'at '}${(startNs / 1e9).toFixed(1)} s`
            + `${fromLive ? ' behind the edge' : ''}`);
        }
      },
      frame: (frame) => {
        if (current()) {
          this.onFrame(frame);
        }
      },
      badFrame: (e) => {
        if (current()) {
          this.fail('The stream broke', `The server sent a frame this player cannot read: ${e.message}`, true);
        }
      },
      lost: (event) => {
        if (current()) {
          this.lost(connection, event);
        }
      },
    });
  }

  /** The server (or the network) closed the connection: a stream that had started is picked up again. */
  lost(connection, event) {
    connection.close();
    if (connection.endReceived || STOPPED.includes(this.state)) {
      return;
    }
    const cause = `the server closed the connection (code ${event.code}${event.reason ? `: ${event.reason}` : ''})`;
    if (!this.reconnectAfter(connection, cause)) {
      this.fail('The connection was lost', `The server closed the stream's connection (code ${event.code}`
        + `${event.reason ? `: ${event.reason}` : ''}) before the clip ended.`, true);
    }
  }

  /**
   * Opens a stream that had started (or was being picked up) again after a backoff, at the fragment
   * after the playing one; false if it had not started or no attempt is left.
   */
  reconnectAfter(connection, cause) {
    const started = connection.accept !== null || this.reconnector.resuming;
    const waitMs = started ? this.reconnector.lost(performance.now(), cause) : null;
    if (waitMs === null) {
      return false;
    }
    this.setState('reconnecting');
    this.log(`${cause}; connecting again in ${(waitMs / 1000).toFixed(1)} s (attempt ${this.reconnector.attempt} `
      + `of ${this.reconnector.attempts})`, true);
    this.reconnectTimer = setTimeout(
      () => this.connect(nextFragmentNs(this.resumeAtNs(), this.fragmentDurationNs)), waitMs);
    return true;
  }

  onFrame(frame) {
    switch (frame.type) {
      case 'ACCEPT': return this.onAccept(frame);
      case 'REJECT': return this.onReject(frame);
      case 'DATA': return this.onData(frame);
      case 'END': return this.onEnd();
      case 'LIVE': return this.onLive(frame);
      case 'ERROR': return this.onError(frame);
      case 'REDIRECT': return this.onRedirect(frame);
      default: return undefined;
    }
  }

  onAccept(accept) {
    const connection = this.connection;
    connection.accepted(accept, performance.now());
    this.reconnector.answered();
    this.fragmentDurationNs = accept.fragmentDurationNs;
    this.log(`ACCEPT stream ${accept.streamId}: ${accept.codecs}, `
      + `${(accept.fragmentDurationNs / 1e9).toFixed(1)} s fragments, ${formatBytes(accept.initSegment.length)} init`);
    this.view.stream(accept);
    this.live.accepted(accept);
    if (!this.feed.attached) {
      try {
        this.feed.attach(accept.codecs ? `${this.info.mimeType}; codecs="${accept.codecs}"` : this.info.mimeType);
      } catch (e) {
        connection.close();
        this.unsupported(`This browser refused ${this.info.mimeType} with codecs ${accept.codecs}: ${e.message}`);
        return;
      }
    }
    if (accept.live) {
      this.log('the object is being recorded: LIVE');
      this.view.recording(this.info);
      this.feed.duration(Infinity);
    }
    if (accept.initSegment.length > 0) {
      this.feed.append(accept.initSegment);
    }
    this.setState('buffering');
    connection.startReports(() => this.heldAhead(accept.fragmentDurationNs));
    this.feed.pump();
    if (accept.live && this.goLiveOnAccept) {
      this.goLive();
    }
    this.goLiveOnAccept = false;
  }

  /** LIVE: the recording has got further; with ENDED the object is an ordinary one of that length. */
  onLive(frame) {
    this.live.update(frame);
    if (frame.ended) {
      this.info.durationNs = frame.recordedNs;
      this.view.details(this.info);
      this.log(`the recording ended at ${(frame.recordedNs / 1e9).toFixed(1)} s`);
    }
  }

  /** "Go live": SEEK from the live edge, and the playing position moves to its first fragment. */
  goLive() {
    const connection = this.connection;
    if (!this.live.live || !connection?.streaming) {
      return;
    }
    this.feed.dropQueuedAppends();
    connection.seek(0, true);
    connection.resume();
    this.live.landing = true;
    this.wantPlay = true;
    this.log('SEEK to the live edge');
    this.setState('buffering');
  }

  /** Another node holds the object, or has room for it: the same OPEN goes there. */
  onRedirect(redirect) {
    this.connection.close();
    if (!this.reconnector.redirected()) {
      this.fail('The stream went round', `The servers sent this player on more than ${MAX_REDIRECTS} times in a `
        + `row, last to ${redirect.target}.`, true);
      return;
    }
    this.log(`REDIRECT ${redirect.reasonName} to ${redirect.target}`);
    this.connect(this.opening.startNs, this.opening.fromLive, redirect.target);
  }

  onReject(reject) {
    const connection = this.connection;
    connection.close();
    this.reconnector.answered();
    const reason = P.RejectReason[reject.reason];
    if (this.reconnector.resuming && reason.name === 'START_OUT_OF_RANGE') {
      // Picked up past its end: the stream had sent all there was.
      connection.ended();
      this.log('the stream had reached its end');
      this.feed.pump();
      return;
    }
    if (this.reconnector.resuming && reason.retry && this.reconnectAfter(connection, `REJECT ${reason.name}`)) {
      return;
    }
    this.setState('rejected');
    this.log(`REJECT ${reason.name}: ${reject.message}`, true);
    const title = reason.retry ? 'The server is busy' : 'The server cannot play this';
    this.view.show(title, reason.text, { detail: reject.message, retry: reason.retry });
    if (reason.retry && reject.retryAfterSeconds > 0) {
      this.view.startCountdown(reject.retryAfterSeconds, () => this.connect(this.resumeAtNs()));
    }
  }

  onData(data) {
    const connection = this.connection;
    if (!connection.take(data)) {
      return;
    }
    const now = performance.now();
    const gap = this.reconnector.data(now);
    if (gap) {
      this.log(`went on at fragment ${data.fragmentIndex} after a gap of ${(gap.lengthMs / 1000).toFixed(1)} s`, true);
      this.view.reconnects(this.reconnector.summary());
    }
    const bytes = data.fragment.byteLength;
    this.stats.received(now, bytes, connection);
    const lateMs = connection.lateByMs(data, now);
    if (lateMs > 0) {
      this.stats.glitches++;
      this.log(`fragment ${data.fragmentIndex} arrived ${lateMs.toFixed(0)} ms after its deadline`, true);
    }
    if (data.discontinuity) {
      this.log(`from ${(data.presentationNs / 1e9).toFixed(1)} s (fragment ${data.fragmentIndex})`);
    }
    this.fragments.add(data.presentationNs, bytes);
    this.live.kept(data.presentationNs);
    if (this.feed.placedByOffset && (data.discontinuity || data.sequence === 0)) {
      // Byte streams without timestamps (MP3) are placed by the fragment's presentation time.
      this.feed.offset(data.presentationNs / 1e9);
    }
    this.feed.append(data.fragment);
    this.feed.pump();
  }

  onEnd() {
    this.connection.ended();
    this.log(`END after ${this.stats.fragments} fragments`);
    this.feed.pump();
  }

  onError(error) {
    this.log(`ERROR ${error.codeName}: ${error.message}`, true);
    const connection = this.connection;
    if (error.codeName === 'SHUTTING_DOWN' && this.reconnectAfter(connection, 'the server is shutting down')) {
      connection.close();
      return;
    }
    this.fail('The server ended the stream', `${error.message} (${error.codeName})`, true);
  }

  /**
   * A ManagedMediaSource wants media again (startstreaming) or holds enough (endstreaming): the
   * stream is RESUMEd, while playing is wanted, or PAUSEd on the server, which keeps its admission.
   */
  streamingChanged(streaming) {
    const connection = this.connection;
    if (!streaming) {
      if (connection?.pause()) {
        this.log('PAUSE: the browser holds enough (endstreaming)');
      }
    } else if (this.wantPlay && connection?.resume()) {
      this.log('RESUME: the browser wants more (startstreaming)');
      this.expectAfterResume(connection);
    }
  }

  /**
   * Media was removed from the SourceBuffer (removed, [{ start, end }] seconds): what the browser
   * evicted at or after the playing position is asked for again, else playback would wait for it
   * forever.
   */
  evicted(removed) {
    const fromS = refetchFromS(removed, this.video.currentTime);
    if (fromS !== null) {
      this.log(`the browser evicted media from ${fromS.toFixed(1)} s on: fetching it again`, true);
      this.fetchFrom(fromS);
    }
  }

  /** Asks the server for the media from targetS on: SEEK on the running stream, else a new OPEN there. */
  fetchFrom(targetS) {
    this.feed.dropQueuedAppends();
    const connection = this.connection;
    if (connection?.streaming) {
      connection.seek(targetS * 1e9);
      this.log(`SEEK to ${targetS.toFixed(1)} s`);
      if (this.wantPlay) {
        connection.resume();
      }
      this.setState(this.wantPlay ? 'buffering' : 'paused');
    } else {
      this.connect(Math.round(targetS * 1e9));
    }
  }

  /** What REPORT says is held ahead of the playing position. */
  heldAhead(fragmentDurationNs) {
    return {
      bufferedNs: Math.round(this.aheadS() * 1e9),
      bufferedBytes: this.fragments.bytesFrom(this.video.currentTime * 1e9, fragmentDurationNs),
    };
  }
}
