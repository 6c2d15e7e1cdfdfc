// The stream protocol's WebSocket binding (docs/stream-protocol.md, Bindings): each frame is one
// binary message. A StreamSocket opens the socket, decodes what arrives, and sends REPORT on a
// timer; what the frames mean is the player's and its Connection's.

import * as P from './protocol.js';

const REPORT_MS = 1000;

/** The WebSocket address of the server's streamPath on the page's own host. */
export function streamUrl(location, streamPath) {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${streamPath}`;
}

export class StreamSocket {
  #socket;
  #reportTimer = null;

  constructor(url) {
    this.#socket = new WebSocket(url);
    this.#socket.binaryType = 'arraybuffer';
  }

  /**
   * Calls opened() when the socket opens, frame(decoded) for each frame, badFrame(error) for a
   * message that is not one (a ProtocolError), and lost(closeEvent) when the socket closes.
   */
  listen({ opened, frame, badFrame, lost }) {
    this.#socket.onopen = opened;
    this.#socket.onmessage = (event) => {
      let decoded;
      try {
        decoded = P.decode(event.data);
      } catch (e) {
        badFrame(e);
        return;
      }
      frame(decoded);
    };
    this.#socket.onclose = lost;
  }

  get isOpen() {
    return this.#socket.readyState === WebSocket.OPEN;
  }

  send(bytes) {
    this.#socket.send(bytes);
  }

  startReports(sendReport) {
    this.stopReports();
    this.#reportTimer = setInterval(sendReport, REPORT_MS);
  }

  stopReports() {
    clearInterval(this.#reportTimer);
    this.#reportTimer = null;
  }

  close() {
    this.stopReports();
    this.#socket.close();
  }
}
