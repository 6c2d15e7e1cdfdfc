// The record page's side of publishing: PUBLISH, MEDIA frames within the server's client-frame
// limit, CLOSE, and what each answer of the server means, against a stand-in socket.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as P from '../../main/resources/io/rondo/client/player/protocol.js';
import { mediaFrames, peakFor, Publication } from '../../main/resources/io/rondo/client/player/publisher.js';

function socket() {
  return { isOpen: true, sent: [], send(bytes) { this.sent.push(new Uint8Array(bytes)); }, close() {} };
}

const header = (frame) => ({ type: frame[2], flags: frame[3], length: new DataView(frame.buffer).getUint32(4) });

test('the encoder\'s bytes go as MEDIA frames of at most 65,528 bytes each, in order, nothing lost', () => {
  const bytes = new Uint8Array(2 * P.MAX_MEDIA_BYTES + 17).map((_, i) => i % 253);
  const frames = mediaFrames(bytes).map((f) => new Uint8Array(f));
  assert.deepEqual(frames.map((f) => header(f).length), [65528, 65528, 17]);
  assert.ok(frames.every((f) => f.length <= 64 * 1024 && header(f).type === P.Type.MEDIA));
  const joined = new Uint8Array(bytes.length);
  let at = 0;
  for (const f of frames) {
    joined.set(f.subarray(8), at);
    at += f.length - 8;
  }
  assert.deepEqual(joined, bytes);
  assert.deepEqual(mediaFrames(new Uint8Array(0)), [], 'nothing to send, no frame');
});

test('a recording is published, sent, told durable, closed and ended', () => {
  const s = socket();
  const publication = new Publication(s);
  publication.publish('/cams/browser.webm', 'webm', peakFor(2_500_000), 'publish-token-01');
  assert.equal(header(s.sent[0]).type, P.Type.PUBLISH);
  assert.ok(new TextDecoder().decode(s.sent[0]).endsWith('cams/browser.webm'), 'the name without its leading /');
  publication.send(new Uint8Array([1, 2, 3]));
  assert.equal(s.sent.length, 1, 'no MEDIA before ACCEPT');
  assert.deepEqual(publication.received({ type: 'ACCEPT', streamId: 4 }), { kind: 'accepted' });
  publication.send(new Uint8Array(70_000));
  assert.equal(publication.bytesSent, 70_000);
  assert.deepEqual(s.sent.slice(1).map((f) => header(f).length), [65528, 4472]);
  assert.deepEqual(publication.received({ type: 'DURABLE', fragments: 3, durableNs: 3e9, bytesReceived: 70_000 }),
    { kind: 'durable' });
  assert.equal(publication.durable.durableNs, 3e9);
  publication.finish();
  assert.equal(header(s.sent[s.sent.length - 1]).type, P.Type.CLOSE);
  assert.equal(publication.state, 'finishing');
  publication.send(new Uint8Array(5));
  assert.equal(publication.bytesSent, 70_000, 'nothing after CLOSE');
  assert.deepEqual(publication.received({ type: 'END' }), { kind: 'ended' });
  assert.equal(publication.lost(1000), null, 'the server closes after END: no failure');
});

test('a refusal, an error and a lost connection each say what happened', () => {
  const refused = new Publication(socket());
  assert.deepEqual(refused.received({ type: 'REJECT', reason: 8, retryAfterSeconds: 0, message: 'no token' }), {
    kind: 'refused', reason: 'FORBIDDEN', message: 'no token', text: P.RejectReason[8].text,
  });
  const failed = new Publication(socket());
  failed.received({ type: 'ACCEPT' });
  assert.deepEqual(failed.received({ type: 'ERROR', code: 0x0107, codeName: 'RATE_EXCEEDED', message: 'too fast' }),
    { kind: 'failed', text: 'too fast (RATE_EXCEEDED)' });
  const lost = new Publication(socket());
  lost.received({ type: 'ACCEPT' });
  assert.equal(lost.lost(1006).kind, 'failed');
  assert.match(lost.lost(1006) ?? 'none', /none/, 'told once');
});
