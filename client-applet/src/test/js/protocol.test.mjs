// The player's codec against docs/stream-protocol.md: the encoders write the specification's hex
// examples byte for byte, the decoder reads its server examples, and every malformed frame is
// refused with the ProtocolError code the specification names for it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as P from '../../main/resources/io/rondo/client/player/protocol.js';

const SPEC = readFileSync(new URL('../../../../docs/stream-protocol.md', import.meta.url), 'utf8');

/** The hex example under each "### TYPE" heading of the specification, as bytes. */
function examples() {
  const found = {};
  for (const [, name, block] of SPEC.matchAll(/### (\w+)\s*\n(?:(?!\n###)[\s\S])*?```hex\n([\s\S]*?)```/g)) {
    found[name] = bytes(block.split('\n').map((line) => line.split('|')[0]).join(' '));
  }
  return found;
}

/** "52 01 ..." as an ArrayBuffer. */
function bytes(hex) {
  const digits = hex.replace(/\s+/g, '');
  return new Uint8Array(digits.match(/../g).map((h) => parseInt(h, 16))).buffer;
}

function hexOf(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** A frame with a header of type, flags and a declared length (the payload's unless given). */
function frame(type, payloadHex = '', { flags = 0, length, magic = 0x52, version = 1 } = {}) {
  const payload = new Uint8Array(payloadHex ? bytes(payloadHex) : new ArrayBuffer(0));
  const out = new Uint8Array(8 + payload.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, magic);
  view.setUint8(1, version);
  view.setUint8(2, type);
  view.setUint8(3, flags);
  view.setUint32(4, length ?? payload.length);
  out.set(payload, 8);
  return out.buffer;
}

const EXAMPLES = examples();

test('the specification has a hex example for each of the sixteen frame types', () => {
  assert.deepEqual(Object.keys(EXAMPLES).sort(), Object.keys(P.Type).sort());
});

test('the encoders write the specification\'s examples byte for byte', () => {
  const written = {
    OPEN: P.encodeOpen('demo/a.webm', 30e9, 2500000, 8388608),
    PAUSE: P.encodePause(),
    RESUME: P.encodeResume(),
    SEEK: P.encodeSeek(95.5e9),
    CLOSE: P.encodeClose(),
    REPORT: P.encodeReport(4e9, 2000000, 12345678),
    PUBLISH: P.encodePublish('cams/door.mp4', 'mp4', 4000000, 'publish-token-01'),
    MEDIA: P.encodeMedia(new Uint8Array([0x00, 0x00, 0x00, 0x68, 0x6d, 0x6f, 0x6f, 0x66])),
  };
  for (const [name, buffer] of Object.entries(written)) {
    assert.equal(hexOf(buffer), hexOf(EXAMPLES[name]), name);
  }
});

test('the decoder reads the specification\'s server frames', () => {
  const accept = P.decode(EXAMPLES.ACCEPT);
  assert.deepEqual({ ...accept, initSegment: hexOf(accept.initSegment) }, {
    type: 'ACCEPT', streamId: 7, fragmentDurationNs: 1e9, bitsPerSecond: 4000000, codecs: 'vp9,opus',
    initSegment: '1a 45 df a3', live: false,
  });
  assert.deepEqual(P.decode(EXAMPLES.REJECT), {
    type: 'REJECT', reason: 1, reasonName: 'DISK_TIME', retryAfterSeconds: 5, message: 'disk 2 is full',
  });
  const data = P.decode(EXAMPLES.DATA);
  assert.deepEqual({ ...data, fragment: hexOf(data.fragment) }, {
    type: 'DATA', sequence: 3, fragmentIndex: 33, presentationNs: 33e9, deadlineNs: 3e9, discontinuity: true,
    fragment: '1f 43 b6 75 01 02',
  });
  assert.deepEqual(P.decode(EXAMPLES.END), { type: 'END' });
  assert.deepEqual(P.decode(EXAMPLES.REDIRECT), {
    type: 'REDIRECT', reason: 1, reasonName: 'NOT_HERE', target: 'rondo://node-b:8554/demo/a.webm',
  });
  assert.deepEqual(P.decode(EXAMPLES.DURABLE), {
    type: 'DURABLE', fragments: 12, durableNs: 12e9, bytesReceived: 6000000,
  });
  assert.deepEqual(P.decode(EXAMPLES.LIVE), { type: 'LIVE', recordedNs: 95e9, durableNs: 94e9, ended: false });
  assert.deepEqual(P.decode(EXAMPLES.ERROR), {
    type: 'ERROR', code: 0x0101, codeName: 'READ_FAILED', message: 'disk 1: I/O error',
  });
});

test('OPEN and SEEK from live, ACCEPT of a live object and LIVE ENDED are the examples with flag bit 0 set', () => {
  const withFlag = (name) => {
    const copy = EXAMPLES[name].slice(0);
    new DataView(copy).setUint8(3, 0x01);
    return copy;
  };
  const open = new Uint8Array(withFlag('OPEN'));
  new DataView(open.buffer).setBigInt64(8, 20000000000n);
  assert.equal(hexOf(P.encodeOpen('demo/a.webm', 20e9, 2500000, 8388608, { fromLive: true })), hexOf(open.buffer));
  assert.match(hexOf(open.buffer), /^52 01 01 01 00 00 00 25 00 00 00 04 a8 17 c8 00/, 'as the specification shows');
  const seek = new Uint8Array(withFlag('SEEK'));
  seek.fill(0, 8);
  assert.equal(hexOf(P.encodeSeek(0, { fromLive: true })), hexOf(seek.buffer));
  assert.equal(hexOf(P.encodeSeek(95.5e9, { fromLive: false })), hexOf(EXAMPLES.SEEK));
  assert.equal(P.decode(withFlag('ACCEPT')).live, true);
  assert.deepEqual(P.decode(withFlag('LIVE')), { type: 'LIVE', recordedNs: 95e9, durableNs: 94e9, ended: true });
});

test('an OPEN that follows redirects is the example with flag bit 1 set', () => {
  const open = EXAMPLES.OPEN.slice(0);
  new DataView(open).setUint8(3, 0x02);
  assert.equal(hexOf(P.encodeOpen('demo/a.webm', 30e9, 2500000, 8388608, { followsRedirects: true })), hexOf(open));
  new DataView(open).setUint8(3, 0x03);
  assert.equal(hexOf(P.encodeOpen('demo/a.webm', 30e9, 2500000, 8388608, { fromLive: true, followsRedirects: true })),
    hexOf(open));
});

test('a DATA fragment is a view of the message, not a copy', () => {
  const message = EXAMPLES.DATA;
  assert.equal(P.decode(message).fragment.buffer, message);
});

test('an ERROR code not in the table is still read, and named by its number', () => {
  const error = P.decode(frame(0x85, '7f 00  00 00'));
  assert.equal(error.code, 0x7f00);
  assert.equal(error.codeName, 'error 0x7f00');
});

const { ErrorCode } = P;
const ZERO = '00 00 00 00 00 00 00 00';
const MINUS_ONE = 'ff ff ff ff ff ff ff ff';
const ONE_SECOND = '00 00 00 00 3b 9a ca 00';

/** DATA's payload: sequence, fragmentIndex, presentationNs and deadlineNs, and no fragment bytes. */
function dataPayload({ sequence = ZERO, fragmentIndex = ZERO } = {}) {
  return [sequence, fragmentIndex, ZERO, ZERO].join(' ');
}

/** ACCEPT's payload with empty codecs and init segment. */
function acceptPayload({
  streamId = '00 00 00 00 00 00 00 07', fragmentDurationNs = ONE_SECOND, bitsPerSecond = ZERO,
} = {}) {
  return [streamId, fragmentDurationNs, bitsPerSecond, '00 00', '00 00 00 00'].join(' ');
}

/** Each fault the specification names, as a whole WebSocket message, with the code it calls for. */
const MALFORMED = [
  ['a message of less than a header', bytes('52 01 84 00 00 00'), ErrorCode.TRUNCATED_FRAME],
  ['an HTTP request\'s first bytes (bad magic)', bytes('47 45 54 20 2f 20 48 54'), ErrorCode.MALFORMED_FRAME],
  ['version 2', frame(0x84, '', { version: 2 }), ErrorCode.UNSUPPORTED_VERSION],
  ['a type no frame has', frame(0x89), ErrorCode.UNKNOWN_FRAME_TYPE],
  ['a redirect reason not in the table', frame(0x88, '03  00 07  77 73 3a 2f 2f 68 2f'), ErrorCode.MALFORMED_FRAME],
  ['a redirect to no URL', frame(0x88, '01  00 04  6e 6f 64 65'), ErrorCode.MALFORMED_FRAME],
  ['a redirect to HTTP', frame(0x88, '02  00 0a  68 74 74 70 3a 2f 2f 68 2f 61'), ErrorCode.MALFORMED_FRAME],
  ['a reserved flag on REDIRECT', frame(0x88, '01  00 07  77 73 3a 2f 2f 68 2f', { flags: 0x01 }),
    ErrorCode.MALFORMED_FRAME],
  ['bytes after REDIRECT\'s target', frame(0x88, '01  00 07  77 73 3a 2f 2f 68 2f 00'), ErrorCode.MALFORMED_FRAME],
  ['a client\'s frame (PAUSE) sent by the server', frame(0x02), ErrorCode.UNEXPECTED_FRAME],
  ['a publisher\'s frame (MEDIA) sent by the server', frame(0x08, '00'), ErrorCode.UNEXPECTED_FRAME],
  ['a reserved flag on END', frame(0x84, '', { flags: 0x01 }), ErrorCode.MALFORMED_FRAME],
  ['a reserved flag on DATA', frame(0x83, dataPayload(), { flags: 0x02 }), ErrorCode.MALFORMED_FRAME],
  ['a payload past 16 MiB', bytes('52 01 83 00 ff ff ff ff'), ErrorCode.FRAME_TOO_LARGE],
  ['a payload of 16 MiB + 1', frame(0x84, '', { length: 16 * 1024 * 1024 + 1 }), ErrorCode.FRAME_TOO_LARGE],
  ['a message that ends inside its frame', frame(0x85, '01 01 00', { length: 4 }), ErrorCode.TRUNCATED_FRAME],
  ['bytes after the frame in its message', bytes('52 01 84 00 00 00 00 00 52'), ErrorCode.MALFORMED_FRAME],
  ['bytes after END\'s (empty) payload', frame(0x84, '00'), ErrorCode.MALFORMED_FRAME],
  ['an ACCEPT whose fields run past its payload', frame(0x81, '00 00 00 00 00 00 00 07'), ErrorCode.MALFORMED_FRAME],
  ['a string longer than what is left', frame(0x85, '01 01  00 05  41 42'), ErrorCode.MALFORMED_FRAME],
  ['an init segment longer than what is left', frame(0x81, [ZERO, ONE_SECOND, ZERO, '00 00', '00 00 00 09 1a']
    .join(' ')), ErrorCode.MALFORMED_FRAME],
  ['invalid UTF-8 in a message', frame(0x85, '01 01  00 02  c3 28'), ErrorCode.MALFORMED_FRAME],
  ['a negative retry-after', frame(0x82, '01  ff ff ff ff  00 00'), ErrorCode.MALFORMED_FRAME],
  ['a reject reason not in the table', frame(0x82, '0b  00 00 00 00  00 00'), ErrorCode.MALFORMED_FRAME],
  ['a reserved flag on DURABLE', frame(0x86, [ZERO, ZERO, ZERO].join(' '), { flags: 0x01 }), ErrorCode.MALFORMED_FRAME],
  ['a negative durable time', frame(0x86, [ZERO, MINUS_ONE, ZERO].join(' ')), ErrorCode.MALFORMED_FRAME],
  ['a DURABLE shorter than its fields', frame(0x86, [ZERO, ZERO].join(' ')), ErrorCode.MALFORMED_FRAME],
  ['bytes after DURABLE\'s fields', frame(0x86, [ZERO, ZERO, ZERO, '00'].join(' ')), ErrorCode.MALFORMED_FRAME],
  ['a reserved flag on ACCEPT', frame(0x81, acceptPayload(), { flags: 0x02 }), ErrorCode.MALFORMED_FRAME],
  ['a reserved flag on LIVE', frame(0x87, [ZERO, ZERO].join(' '), { flags: 0x02 }), ErrorCode.MALFORMED_FRAME],
  ['a LIVE durable past its live edge', frame(0x87, [ZERO, ONE_SECOND].join(' ')), ErrorCode.MALFORMED_FRAME],
  ['a negative live edge', frame(0x87, [MINUS_ONE, ZERO].join(' ')), ErrorCode.MALFORMED_FRAME],
  ['a LIVE shorter than its fields', frame(0x87, ZERO), ErrorCode.MALFORMED_FRAME],
  ['a negative DATA sequence', frame(0x83, dataPayload({ sequence: MINUS_ONE })), ErrorCode.MALFORMED_FRAME],
  ['a negative fragment index', frame(0x83, dataPayload({ fragmentIndex: MINUS_ONE })), ErrorCode.MALFORMED_FRAME],
  ['a DATA shorter than its fields', frame(0x83, [ZERO, ZERO, '00 00 00'].join(' ')), ErrorCode.MALFORMED_FRAME],
  ['an ACCEPT with fragments of no duration', frame(0x81, acceptPayload({ fragmentDurationNs: ZERO })),
    ErrorCode.MALFORMED_FRAME],
  ['a negative bit rate', frame(0x81, acceptPayload({ bitsPerSecond: MINUS_ONE })), ErrorCode.MALFORMED_FRAME],
  ['a stream id past 2^53', frame(0x81, acceptPayload({ streamId: '00 40 00 00 00 00 00 00' })),
    ErrorCode.MALFORMED_FRAME],
];

test('the well-formed frames the malformed ones are cut from decode', () => {
  assert.equal(P.decode(frame(0x83, dataPayload())).type, 'DATA');
  assert.equal(P.decode(frame(0x81, acceptPayload())).type, 'ACCEPT');
  assert.equal(P.decode(frame(0x86, [ZERO, ZERO, ZERO].join(' '))).type, 'DURABLE');
  assert.equal(P.decode(frame(0x87, [ONE_SECOND, ZERO].join(' '))).type, 'LIVE');
  assert.equal(P.decode(frame(0x88, '01  00 07  77 73 3a 2f 2f 68 2f')).type, 'REDIRECT');
});

for (const [what, message, code] of MALFORMED) {
  test(`refused with ${P.errorName(code)}: ${what}`, () => {
    assert.throws(() => P.decode(message), (e) => {
      assert.ok(e instanceof P.ProtocolError, `a ProtocolError, not ${e}`);
      assert.equal(P.errorName(e.code), P.errorName(code), e.message);
      return true;
    });
  });
}

test('a text message is not a frame', () => {
  assert.throws(() => P.decode('RONDO'), (e) => e instanceof P.ProtocolError && e.code === ErrorCode.MALFORMED_FRAME);
});

test('the encoders refuse what the specification does not allow', () => {
  assert.throws(() => P.encodeOpen('', 0, 1, 1), RangeError, 'an empty name');
  assert.throws(() => P.encodeOpen('a'.repeat(65536), 0, 1, 1), RangeError, 'a name past 65535 bytes');
  assert.throws(() => P.encodeOpen('a.webm', -1, 1, 1), RangeError, 'a negative start');
  assert.throws(() => P.encodeOpen('a.webm', 0, 0, 1), RangeError, 'no receive rate');
  assert.throws(() => P.encodeOpen('a.webm', 0, 1, 0), RangeError, 'no buffer');
  assert.throws(() => P.encodeOpen('a.webm', 0.5, 1, 1), RangeError, 'a start not in whole nanoseconds');
  assert.throws(() => P.encodeSeek(-1), RangeError);
  assert.throws(() => P.encodeReport(0, -1, 0), RangeError);
  assert.throws(() => P.encodePublish('', 'mp4', 1, 'token'), RangeError, 'a recording of no name');
  assert.throws(() => P.encodePublish('a.mp4', 'mp4', 0, 'token'), RangeError, 'no peak rate');
  assert.throws(() => P.encodePublish('a.mp4', 'mp4', 1, 't'.repeat(65536)), RangeError, 'a token past 65535 bytes');
  assert.throws(() => P.encodeMedia(new Uint8Array(0)), RangeError, 'an empty MEDIA');
  assert.throws(() => P.encodeMedia(new Uint8Array(P.MAX_MEDIA_BYTES + 1)), RangeError, 'a MEDIA past the limit');
});

test('a MEDIA frame of the most bytes fits a server\'s default client-frame limit of 64 KiB', () => {
  const media = new Uint8Array(P.MAX_MEDIA_BYTES).map((_, i) => i % 251);
  const wire = new Uint8Array(P.encodeMedia(media));
  assert.equal(wire.length, 64 * 1024);
  assert.deepEqual(Array.from(wire.subarray(0, 8)), [0x52, 1, 0x08, 0, 0x00, 0x00, 0xff, 0xf8]);
  assert.deepEqual(wire.subarray(8), media);
});
