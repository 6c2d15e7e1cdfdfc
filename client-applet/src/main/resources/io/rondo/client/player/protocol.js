// Rondo stream protocol, version 1, for the browser: the frames of docs/stream-protocol.md, each
// one binary WebSocket message. Encoders for what a client sends, a checking decoder for what a
// server sends. The Java codec (io.rondo.client.protocol) is the reference; the browser test runs
// the specification's hex examples through this file too, and its unit tests
// (src/test/js/protocol.test.mjs) each malformed frame.

export const VERSION = 1;
export const MAGIC = 0x52;
export const HEADER_LENGTH = 8;
export const MAX_PAYLOAD = 16 * 1024 * 1024;
export const DATA_PREFIX_LENGTH = 32;
export const DISCONTINUITY = 0x01;
/** OPEN and SEEK flag: the start counts back from the live edge. */
export const FROM_LIVE = 0x01;
/** OPEN flag: this client follows REDIRECT to another node. */
export const FOLLOWS_REDIRECTS = 0x02;
/** ACCEPT flag: the object is being recorded now; LIVE frames follow. */
export const LIVE = 0x01;
/** LIVE flag: the recording has ended. */
export const ENDED = 0x01;
/** The most bytes one MEDIA carries within a server's default client-frame limit (64 KiB with the header). */
export const MAX_MEDIA_BYTES = 64 * 1024 - HEADER_LENGTH;

export const Type = Object.freeze({
  OPEN: 0x01, PAUSE: 0x02, RESUME: 0x03, SEEK: 0x04, CLOSE: 0x05, REPORT: 0x06, PUBLISH: 0x07, MEDIA: 0x08,
  ACCEPT: 0x81, REJECT: 0x82, DATA: 0x83, END: 0x84, ERROR: 0x85, DURABLE: 0x86, LIVE: 0x87,
  REDIRECT: 0x88,
});

/** The flag bits a server frame of each type may set; the others are reserved. */
const SERVER_FLAGS = Object.freeze({ [Type.DATA]: DISCONTINUITY, [Type.ACCEPT]: LIVE, [Type.LIVE]: ENDED });

const TYPE_NAMES = Object.freeze(Object.fromEntries(Object.entries(Type).map(([name, code]) => [code, name])));

export const ErrorCode = Object.freeze({
  MALFORMED_FRAME: 0x0001, UNSUPPORTED_VERSION: 0x0002, UNKNOWN_FRAME_TYPE: 0x0003, FRAME_TOO_LARGE: 0x0004,
  UNEXPECTED_FRAME: 0x0005, TRUNCATED_FRAME: 0x0006, INTERNAL_ERROR: 0x0100, READ_FAILED: 0x0101,
  CLIENT_TIMEOUT: 0x0102, SHUTTING_DOWN: 0x0103, ENDED_BY_OPERATOR: 0x0104, TOO_MANY_CONNECTIONS: 0x0105,
  BAD_MEDIA: 0x0106, RATE_EXCEEDED: 0x0107, DISK_FULL: 0x0108, WRITE_FAILED: 0x0109,
});

const ERROR_NAMES = Object.freeze(Object.fromEntries(Object.entries(ErrorCode).map(([name, code]) => [code, name])));

/** The name of an ERROR frame's code; a code not in the table is a fatal error all the same. */
export function errorName(code) {
  return ERROR_NAMES[code] ?? `error 0x${code.toString(16).padStart(4, '0')}`;
}

/** REJECT reasons: whether retrying can help, and what a person is told. */
export const RejectReason = Object.freeze({
  1: { name: 'DISK_TIME', retry: true, text: 'The server is full: its disks have no time left in their rounds for another stream.' },
  2: { name: 'BUFFER_MEMORY', retry: true, text: 'The server is full: its buffer memory cannot hold another stream.' },
  3: { name: 'NETWORK', retry: true, text: 'The server is full: its outgoing network capacity is taken.' },
  4: { name: 'NOT_FOUND', retry: false, text: 'There is no clip of that name.' },
  5: { name: 'NOT_CONTINUOUS', retry: false, text: 'This is not a clip but a document or a picture: open it as a file.' },
  6: { name: 'CLIENT_PROFILE', retry: false, text: 'This player\'s connection or buffer is too small for this clip.' },
  7: { name: 'START_OUT_OF_RANGE', retry: false, text: 'The start lies past the end of the clip.' },
  8: { name: 'FORBIDDEN', retry: false, text: 'Recording needs a publish token, and this one is missing or not valid.' },
  9: { name: 'NAME_TAKEN', retry: false, text: 'A clip or another recording already has that name.' },
  10: { name: 'UNSUPPORTED_MEDIA', retry: false, text: 'The server does not record this kind of media.' },
});

/** REDIRECT reasons, by their byte. */
export const RedirectReason = Object.freeze({ 1: 'NOT_HERE', 2: 'NO_ROOM' });

/** A fault in a frame from the server: the framing is lost, so the connection must close. */
export class ProtocolError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
  }
}

const UTF8 = new TextEncoder();
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

function frame(type, payloadLength, flags = 0) {
  const buffer = new ArrayBuffer(HEADER_LENGTH + payloadLength);
  const view = new DataView(buffer);
  view.setUint8(0, MAGIC);
  view.setUint8(1, VERSION);
  view.setUint8(2, type);
  view.setUint8(3, flags);
  view.setUint32(4, payloadLength);
  return { buffer, view };
}

function i64(value, field) {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${field} must be a whole number of at most 2^53, was ${value}`);
  }
  return BigInt(value);
}

function notNegative(value, field) {
  if (value < 0) {
    throw new RangeError(`${field} must not be negative, was ${value}`);
  }
  return value;
}

/** An object name's UTF-8: 1 to 65535 bytes. */
function objectNameBytes(objectName) {
  const name = UTF8.encode(objectName);
  if (name.length === 0 || name.length > 0xffff) {
    throw new RangeError(`an object name takes 1 to 65535 bytes of UTF-8, was ${name.length}`);
  }
  return name;
}

/** A string field's UTF-8: at most 65535 bytes. */
function stringBytes(value, field) {
  const bytes = UTF8.encode(value);
  if (bytes.length > 0xffff) {
    throw new RangeError(`${field} takes at most 65535 bytes of UTF-8, was ${bytes.length}`);
  }
  return bytes;
}

/**
 * OPEN: the object (its name without the leading '/'), where to start, and the client's profile.
 * With fromLive, startNs is how far behind the live edge to start (0: at the newest keyframe); with
 * followsRedirects, the server may answer REDIRECT to another node.
 */
export function encodeOpen(objectName, startNs, maxReceiveBytesPerSecond, bufferBytes,
  { fromLive = false, followsRedirects = false } = {}) {
  const name = objectNameBytes(objectName);
  if (maxReceiveBytesPerSecond <= 0 || bufferBytes <= 0) {
    throw new RangeError('the client profile\'s rate and buffer must be positive');
  }
  const flags = (fromLive ? FROM_LIVE : 0) | (followsRedirects ? FOLLOWS_REDIRECTS : 0);
  const { buffer, view } = frame(Type.OPEN, 26 + name.length, flags);
  view.setBigInt64(8, i64(notNegative(startNs, 'startNs'), 'startNs'));
  view.setBigInt64(16, i64(maxReceiveBytesPerSecond, 'maxReceiveBytesPerSecond'));
  view.setBigInt64(24, i64(bufferBytes, 'bufferBytes'));
  view.setUint16(32, name.length);
  new Uint8Array(buffer, 34).set(name);
  return buffer;
}

/**
 * PUBLISH: record a stream under objectName; container 'mp4' (fragmented) or 'webm', the most
 * bits a second it will send, and a bearer token of the publish scope.
 */
export function encodePublish(objectName, container, peakBitsPerSecond, token) {
  const name = objectNameBytes(objectName);
  const kind = stringBytes(container, 'container');
  const secret = stringBytes(token, 'token');
  if (!(peakBitsPerSecond > 0)) {
    throw new RangeError(`peakBitsPerSecond must be positive, was ${peakBitsPerSecond}`);
  }
  const { buffer, view } = frame(Type.PUBLISH, 8 + 2 + kind.length + 2 + secret.length + 2 + name.length);
  view.setBigInt64(8, i64(peakBitsPerSecond, 'peakBitsPerSecond'));
  let at = 16;
  for (const bytes of [kind, secret, name]) {
    view.setUint16(at, bytes.length);
    new Uint8Array(buffer, at + 2).set(bytes);
    at += 2 + bytes.length;
  }
  return buffer;
}

/** MEDIA: 1 to MAX_MEDIA_BYTES bytes of the container (a Uint8Array, or an ArrayBuffer), copied into the frame. */
export function encodeMedia(bytes) {
  const media = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  if (!(media instanceof Uint8Array) || media.length === 0 || media.length > MAX_MEDIA_BYTES) {
    throw new RangeError(`a MEDIA frame carries 1 to ${MAX_MEDIA_BYTES} bytes, was ${media?.length}`);
  }
  const { buffer } = frame(Type.MEDIA, media.length);
  new Uint8Array(buffer, HEADER_LENGTH).set(media);
  return buffer;
}

export const encodePause = () => frame(Type.PAUSE, 0).buffer;
export const encodeResume = () => frame(Type.RESUME, 0).buffer;
export const encodeClose = () => frame(Type.CLOSE, 0).buffer;

/** SEEK: the new position in presentation time; with fromLive, how far behind the live edge ("go live" is 0). */
export function encodeSeek(positionNs, { fromLive = false } = {}) {
  const { buffer, view } = frame(Type.SEEK, 8, fromLive ? FROM_LIVE : 0);
  view.setBigInt64(8, i64(notNegative(positionNs, 'positionNs'), 'positionNs'));
  return buffer;
}

/** REPORT: what the client holds ahead of playback, and the DATA bytes it has received. */
export function encodeReport(bufferedNs, bufferedBytes, bytesReceived) {
  const { buffer, view } = frame(Type.REPORT, 24);
  view.setBigInt64(8, i64(notNegative(bufferedNs, 'bufferedNs'), 'bufferedNs'));
  view.setBigInt64(16, i64(notNegative(bufferedBytes, 'bufferedBytes'), 'bufferedBytes'));
  view.setBigInt64(24, i64(notNegative(bytesReceived, 'bytesReceived'), 'bytesReceived'));
  return buffer;
}

class Payload {
  constructor(buffer, type) {
    this.view = new DataView(buffer, HEADER_LENGTH);
    this.bytes = new Uint8Array(buffer, HEADER_LENGTH);
    this.at = 0;
    this.type = TYPE_NAMES[type];
  }

  need(count, field) {
    if (this.at + count > this.view.byteLength) {
      throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `${this.type}: ${field} runs past the payload's end`);
    }
  }

  u8(field) {
    this.need(1, field);
    return this.view.getUint8(this.at++);
  }

  u16(field) {
    this.need(2, field);
    const value = this.view.getUint16(this.at);
    this.at += 2;
    return value;
  }

  i32(field) {
    this.need(4, field);
    const value = this.view.getInt32(this.at);
    this.at += 4;
    return value;
  }

  i64(field) {
    this.need(8, field);
    const value = this.view.getBigInt64(this.at);
    this.at += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `${this.type}: ${field} ${value} is out of range`);
    }
    return Number(value);
  }

  notNegative(value, field) {
    if (value < 0) {
      throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `${this.type}: ${field} is negative (${value})`);
    }
    return value;
  }

  string(field) {
    const length = this.u16(field);
    this.need(length, field);
    const bytes = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    try {
      return STRICT_UTF8.decode(bytes);
    } catch {
      throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `${this.type}: ${field} is not valid UTF-8`);
    }
  }

  blob(field) {
    this.need(4, field);
    const length = this.view.getUint32(this.at);
    this.at += 4;
    this.need(length, field);
    const bytes = this.bytes.slice(this.at, this.at + length);
    this.at += length;
    return bytes;
  }

  end() {
    if (this.at !== this.view.byteLength) {
      throw new ProtocolError(ErrorCode.MALFORMED_FRAME,
        `${this.type}: ${this.view.byteLength - this.at} bytes after the payload's last field`);
    }
  }
}

/**
 * Decodes one server frame, a whole WebSocket message. Checks the header in the order the
 * specification gives (magic, version, type, flags, length) and every field; a fault throws
 * ProtocolError. A DATA frame's fragment is a view of the message's bytes, not a copy.
 */
export function decode(buffer) {
  if (!(buffer instanceof ArrayBuffer)) {
    throw new ProtocolError(ErrorCode.MALFORMED_FRAME, 'a frame comes as a binary message');
  }
  if (buffer.byteLength < HEADER_LENGTH) {
    throw new ProtocolError(ErrorCode.TRUNCATED_FRAME, `a message of ${buffer.byteLength} bytes holds no whole header`);
  }
  const view = new DataView(buffer);
  const magic = view.getUint8(0);
  if (magic !== MAGIC) {
    throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `bad magic 0x${magic.toString(16)}`);
  }
  const version = view.getUint8(1);
  if (version !== VERSION) {
    throw new ProtocolError(ErrorCode.UNSUPPORTED_VERSION, `the server speaks version ${version}; this player speaks 1`);
  }
  const type = view.getUint8(2);
  if (TYPE_NAMES[type] === undefined) {
    throw new ProtocolError(ErrorCode.UNKNOWN_FRAME_TYPE, `unknown frame type 0x${type.toString(16)}`);
  }
  if ((type & 0x80) === 0) {
    throw new ProtocolError(ErrorCode.UNEXPECTED_FRAME, `a server does not send ${TYPE_NAMES[type]}`);
  }
  const flags = view.getUint8(3);
  if ((flags & ~(SERVER_FLAGS[type] ?? 0)) !== 0) {
    throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `${TYPE_NAMES[type]}: reserved flags 0x${flags.toString(16)} set`);
  }
  const length = view.getUint32(4);
  if (length > MAX_PAYLOAD) {
    throw new ProtocolError(ErrorCode.FRAME_TOO_LARGE, `a payload of ${length} bytes is past the 16 MiB maximum`);
  }
  if (buffer.byteLength < HEADER_LENGTH + length) {
    throw new ProtocolError(ErrorCode.TRUNCATED_FRAME, `${TYPE_NAMES[type]}: the message ends inside the frame`);
  }
  if (buffer.byteLength > HEADER_LENGTH + length) {
    throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `${TYPE_NAMES[type]}: bytes after the frame in its message`);
  }
  const p = new Payload(buffer, type);
  switch (type) {
    case Type.ACCEPT: {
      const streamId = p.i64('streamId');
      const fragmentDurationNs = p.i64('fragmentDurationNs');
      if (fragmentDurationNs <= 0) {
        throw new ProtocolError(ErrorCode.MALFORMED_FRAME, 'ACCEPT: fragmentDurationNs must be positive');
      }
      const bitsPerSecond = p.notNegative(p.i64('bitsPerSecond'), 'bitsPerSecond');
      const codecs = p.string('codecs');
      const initSegment = p.blob('initSegment');
      p.end();
      return { type: 'ACCEPT', streamId, fragmentDurationNs, bitsPerSecond, codecs, initSegment, live: (flags & LIVE) !== 0 };
    }
    case Type.REJECT: {
      const reason = p.u8('reason');
      if (RejectReason[reason] === undefined) {
        throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `REJECT: unknown reason ${reason}`);
      }
      const retryAfterSeconds = p.notNegative(p.i32('retryAfterSeconds'), 'retryAfterSeconds');
      const message = p.string('message');
      p.end();
      return { type: 'REJECT', reason, reasonName: RejectReason[reason].name, retryAfterSeconds, message };
    }
    case Type.DATA: {
      const sequence = p.notNegative(p.i64('sequence'), 'sequence');
      const fragmentIndex = p.notNegative(p.i64('fragmentIndex'), 'fragmentIndex');
      const presentationNs = p.i64('presentationNs');
      const deadlineNs = p.i64('deadlineNs');
      p.need(0, 'fragment');
      const fragment = new Uint8Array(buffer, HEADER_LENGTH + DATA_PREFIX_LENGTH);
      return {
        type: 'DATA', sequence, fragmentIndex, presentationNs, deadlineNs,
        discontinuity: (flags & DISCONTINUITY) !== 0, fragment,
      };
    }
    case Type.ERROR: {
      const code = p.u16('code');
      const message = p.string('message');
      p.end();
      return { type: 'ERROR', code, codeName: errorName(code), message };
    }
    case Type.END:
      p.end();
      return { type: 'END' };
    case Type.DURABLE: {
      const fragments = p.notNegative(p.i64('fragments'), 'fragments');
      const durableNs = p.notNegative(p.i64('durableNs'), 'durableNs');
      const bytesReceived = p.notNegative(p.i64('bytesReceived'), 'bytesReceived');
      p.end();
      return { type: 'DURABLE', fragments, durableNs, bytesReceived };
    }
    case Type.LIVE: {
      const recordedNs = p.notNegative(p.i64('recordedNs'), 'recordedNs');
      const durableNs = p.notNegative(p.i64('durableNs'), 'durableNs');
      if (durableNs > recordedNs) {
        throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `LIVE: durableNs ${durableNs} is past recordedNs ${recordedNs}`);
      }
      p.end();
      return { type: 'LIVE', recordedNs, durableNs, ended: (flags & ENDED) !== 0 };
    }
    case Type.REDIRECT: {
      const reason = p.u8('reason');
      if (RedirectReason[reason] === undefined) {
        throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `REDIRECT: unknown reason ${reason}`);
      }
      const target = p.string('target');
      if (!/^(rondo|wss?):\/\/[^/\s]+/i.test(target)) {
        throw new ProtocolError(ErrorCode.MALFORMED_FRAME, `REDIRECT: target '${target}' is not a rondo:// or ws:// URL`);
      }
      p.end();
      return { type: 'REDIRECT', reason, reasonName: RedirectReason[reason], target };
    }
    default:
      throw new ProtocolError(ErrorCode.UNKNOWN_FRAME_TYPE, `unknown frame type 0x${type.toString(16)}`);
  }
}
