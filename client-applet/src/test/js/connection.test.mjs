// One connection's stream as the server sees it: which frames the player sends when, which DATA
// it keeps after a SEEK, and the stream clock its deadlines are read on. The socket is a stand-in
// that records what is sent.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Connection } from '../../main/resources/io/rondo/client/player/connection.js';
import * as P from '../../main/resources/io/rondo/client/player/protocol.js';

const TYPE_NAMES = Object.fromEntries(Object.entries(P.Type).map(([name, code]) => [code, name]));

class RecordingSocket {
  isOpen = true;
  sent = [];
  closed = false;
  report = null;

  send(bytes) {
    this.sent.push(bytes);
  }

  close() {
    this.isOpen = false;
    this.closed = true;
  }

  startReports(sendReport) {
    this.report = sendReport;
  }

  stopReports() {
    this.report = null;
  }

  /** The types of the frames sent, in order. */
  get types() {
    return this.sent.map((bytes) => TYPE_NAMES[new Uint8Array(bytes)[2]]);
  }
}

const ACCEPT = {
  type: 'ACCEPT', streamId: 7, fragmentDurationNs: 1e9, bitsPerSecond: 4e6, codecs: 'vp9',
  initSegment: new Uint8Array(0),
};

function data(sequence, { discontinuity = false, bytes = 100, deadlineNs = sequence * 1e9 } = {}) {
  return {
    type: 'DATA', sequence, fragmentIndex: sequence, presentationNs: sequence * 1e9, deadlineNs, discontinuity,
    fragment: new Uint8Array(bytes),
  };
}

function accepted(socket = new RecordingSocket()) {
  const connection = new Connection(socket);
  connection.open('/videos/a.webm', 0, { rate: 2 * 1024 * 1024, buffer: 16 * 1024 * 1024 }, 100);
  connection.accepted(ACCEPT, 150);
  return connection;
}

test('OPEN names the object without its leading slash, declares the profile and follows REDIRECT', () => {
  const socket = new RecordingSocket();
  new Connection(socket).open('/videos/a.webm', 30e9, { rate: 2500000, buffer: 8388608 }, 0);
  assert.deepEqual(new Uint8Array(socket.sent[0]),
    new Uint8Array(P.encodeOpen('videos/a.webm', 30e9, 2500000, 8388608, { followsRedirects: true })));
});

test('the stream clock starts at ACCEPT', () => {
  const connection = new Connection(new RecordingSocket());
  assert.equal(connection.streamClockNs(1000), null, 'no clock before ACCEPT');
  connection.accepted(ACCEPT, 1000);
  assert.equal(connection.streamClockNs(1000), 0);
  assert.equal(connection.streamClockNs(3500), 2.5e9);
});

test('a fragment after its deadline is late by the difference on the stream clock', () => {
  const connection = accepted();
  assert.equal(connection.lateByMs(data(2), 150 + 2000), 0, 'at its deadline it is on time');
  assert.ok(connection.lateByMs(data(2), 150 + 1999) < 0);
  assert.equal(connection.lateByMs(data(2), 150 + 2040), 40);
});

test('after a SEEK the DATA still in flight is dropped until the fragment that answers it', () => {
  const socket = new RecordingSocket();
  const connection = accepted(socket);
  assert.equal(connection.take(data(0)), true);
  connection.seek(30e9);
  assert.deepEqual(socket.types.slice(1), ['SEEK']);
  assert.equal(connection.newest, null, 'the old position promises nothing');
  assert.equal(connection.take(data(1)), false, 'sent before the SEEK arrived');
  assert.equal(connection.take(data(30, { discontinuity: true })), true, 'the answer');
  assert.deepEqual(connection.newest, { presentationNs: 30e9, deadlineNs: 30e9 });
  assert.equal(connection.take(data(31)), true);
  assert.equal(connection.streamBytes, 400, 'REPORT counts dropped bytes as received');
});

test('two quick SEEKs: DATA is dropped until the second one is answered', () => {
  const connection = accepted();
  connection.seek(10e9);
  connection.seek(20e9);
  assert.equal(connection.take(data(10, { discontinuity: true })), false);
  assert.equal(connection.take(data(11)), false);
  assert.equal(connection.take(data(20, { discontinuity: true })), true);
});

test('PAUSE is sent once, and RESUME only after it', () => {
  const socket = new RecordingSocket();
  const connection = accepted(socket);
  assert.equal(connection.resume(), false, 'not paused: nothing to resume');
  assert.equal(connection.pause(), true);
  assert.equal(connection.pause(), false, 'already paused');
  assert.equal(connection.resume(), true);
  assert.deepEqual(socket.types, ['OPEN', 'PAUSE', 'RESUME']);
});

test('a stream that ended or was never accepted is not paused', () => {
  const ended = accepted();
  ended.ended();
  assert.equal(ended.pause(), false);
  assert.equal(new Connection(new RecordingSocket()).pause(), false);
});

test('REPORT says what is held and the stream\'s bytes, once a second until END', () => {
  const socket = new RecordingSocket();
  const connection = accepted(socket);
  connection.take(data(0, { bytes: 1234 }));
  connection.startReports(() => ({ bufferedNs: 4e9, bufferedBytes: 2000000 }));
  socket.report();
  assert.deepEqual(new Uint8Array(socket.sent.at(-1)), new Uint8Array(P.encodeReport(4e9, 2000000, 1234)));
  connection.ended();
  assert.equal(socket.report, null, 'no REPORT after END');
});

test('closing a running stream tells the server with CLOSE, once', () => {
  const socket = new RecordingSocket();
  const connection = accepted(socket);
  connection.close();
  connection.close();
  assert.deepEqual(socket.types, ['OPEN', 'CLOSE']);
  assert.equal(socket.closed, true);
  connection.seek(5e9);
  assert.deepEqual(socket.types, ['OPEN', 'CLOSE'], 'nothing is sent on a closed connection');
});

test('closing after END, before ACCEPT, or after the server closed, sends no CLOSE', () => {
  const ended = new RecordingSocket();
  const afterEnd = accepted(ended);
  afterEnd.ended();
  afterEnd.close();
  assert.deepEqual(ended.types, ['OPEN']);

  const opening = new RecordingSocket();
  new Connection(opening).close();
  assert.deepEqual(opening.types, []);

  const lost = new RecordingSocket();
  const connection = accepted(lost);
  lost.isOpen = false;
  connection.close();
  assert.deepEqual(lost.types, ['OPEN']);
});

test('OPEN and SEEK from the live edge carry the FROM_LIVE flag, and going live drops DATA until its answer', () => {
  const socket = new RecordingSocket();
  const connection = new Connection(socket);
  connection.open('/cams/door.webm', 20e9, { rate: 2500000, buffer: 8388608 }, 0, true);
  const open = new DataView(socket.sent[0]);
  assert.equal(open.getUint8(3), P.FROM_LIVE | P.FOLLOWS_REDIRECTS, 'OPEN FROM_LIVE');
  assert.equal(open.getBigInt64(8), 20000000000n, '20 s behind the edge');
  connection.accepted({ type: 'ACCEPT', live: true, fragmentDurationNs: 1e9 }, 0);
  assert.equal(connection.take(data(40)), true);
  connection.seek(0, true);
  const seek = new DataView(socket.sent[1]);
  assert.equal(seek.getUint8(3), P.FROM_LIVE, '"go live" is SEEK FROM_LIVE 0');
  assert.equal(seek.getBigInt64(8), 0n);
  assert.equal(connection.take(data(41)), false);
  assert.equal(connection.take(data(58, { discontinuity: true })), true, 'the newest keyframe');
  connection.seek(5e9);
  assert.equal(new DataView(socket.sent[2]).getUint8(3), 0, 'an ordinary SEEK has no flag');
});
