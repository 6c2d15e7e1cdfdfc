package io.rondo.client.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes frames to bytes and decodes whole frames (docs/stream-protocol.md). Stateless, so the
 * server's event loops and the client share it; bytes that arrive in pieces go through a
 * {@link FrameDecoder} instead.
 *
 * <p>Every frame is an 8-byte header (magic {@code 'R'}, version, type, flags, payload length as
 * unsigned 32-bit big-endian) and then the payload.
 */
public final class FrameCodec {
    /** First byte of every frame: ASCII {@code 'R'}. */
    public static final int MAGIC = 0x52;
    /** The protocol version this codec speaks. */
    public static final int VERSION = 1;
    /** Bytes of the frame header. */
    public static final int HEADER_LENGTH = 8;
    /** The longest payload a frame may declare: 16 MiB. */
    public static final int MAX_PAYLOAD_LENGTH = 16 * 1024 * 1024;

    /** Bytes of a DATA frame before its fragment bytes: the header and the fixed fields. */
    public static final int DATA_PREFIX_LENGTH = HEADER_LENGTH + Data.FIELDS_LENGTH;

    private FrameCodec() {
    }

    /**
     * The frame's bytes, in a new buffer ready to read (position 0, limit at its end).
     *
     * @param frame the frame to encode
     */
    public static ByteBuffer encode(Frame frame) {
        ByteBuffer out = ByteBuffer.allocate(encodedLength(frame));
        encode(frame, out);
        return out.flip();
    }

    /**
     * Writes the frame's bytes into {@code dst} at its position and advances it, for a caller that
     * pools its buffers. Nothing is written if the frame does not fit.
     *
     * @param frame the frame to encode
     * @param dst where to write; needs {@link #encodedLength(Frame)} bytes remaining
     * @throws IllegalArgumentException if {@code dst} has too little room
     */
    public static void encode(Frame frame, ByteBuffer dst) {
        int length = encodedLength(frame);
        if (dst.remaining() < length) {
            throw new IllegalArgumentException("a " + frame.type() + " frame needs " + length
                    + " bytes but the buffer has " + dst.remaining());
        }
        ByteOrder callersOrder = dst.order();
        dst.order(ByteOrder.BIG_ENDIAN);
        try {
            writeFrame(frame, dst, length);
        } finally {
            dst.order(callersOrder);
        }
    }

    private static void writeFrame(Frame frame, ByteBuffer dst, int length) {
        writeHeader(dst, frame.type(), flags(frame), length - HEADER_LENGTH);
        switch (frame.type()) {
            case OPEN -> {
                Open f = (Open) frame;
                dst.putLong(f.startNs());
                dst.putLong(f.profile().maxReceiveBytesPerSecond());
                dst.putLong(f.profile().bufferBytes());
                putString(dst, f.objectName(), "objectName");
            }
            case SEEK -> dst.putLong(((Seek) frame).positionNs());
            case LIVE -> {
                Live f = (Live) frame;
                dst.putLong(f.recordedNs());
                dst.putLong(f.durableNs());
            }
            case REPORT -> {
                Report f = (Report) frame;
                dst.putLong(f.bufferedNs());
                dst.putLong(f.bufferedBytes());
                dst.putLong(f.bytesReceived());
            }
            case PUBLISH -> {
                Publish f = (Publish) frame;
                dst.putLong(f.peakBitsPerSecond());
                putString(dst, f.container(), "container");
                putString(dst, f.token(), "token");
                putString(dst, f.objectName(), "objectName");
            }
            case MEDIA -> dst.put(((Media) frame).payload());
            case ACCEPT -> {
                Accept f = (Accept) frame;
                dst.putLong(f.streamId());
                dst.putLong(f.fragmentDurationNs());
                dst.putLong(f.bitsPerSecond());
                putString(dst, f.codecs(), "codecs");
                ByteBuffer init = f.initSegment();
                dst.putInt(init.remaining());
                dst.put(init);
            }
            case REJECT -> {
                Reject f = (Reject) frame;
                dst.put((byte) f.reason().code());
                dst.putInt(f.retryAfterSeconds());
                putString(dst, f.message(), "message");
            }
            case DATA -> {
                Data f = (Data) frame;
                putDataFields(dst, f);
                dst.put(f.payload());
            }
            case ERROR -> {
                ErrorFrame f = (ErrorFrame) frame;
                dst.putShort((short) f.code());
                putString(dst, f.message(), "message");
            }
            case DURABLE -> {
                Durable f = (Durable) frame;
                dst.putLong(f.fragments());
                dst.putLong(f.durableNs());
                dst.putLong(f.bytesReceived());
            }
            case REDIRECT -> {
                Redirect f = (Redirect) frame;
                dst.put((byte) f.reason().code());
                putString(dst, f.target(), "target");
            }
            case PAUSE, RESUME, CLOSE, END -> {
                // The payload is empty.
            }
            default -> throw new AssertionError(frame.type());
        }
    }

    /**
     * Writes a DATA frame's header and fixed fields but not its fragment bytes, so a server can send
     * the fragment from the buffer it was read into, right after these {@link #DATA_PREFIX_LENGTH} bytes.
     *
     * @param data the frame whose prefix to write
     * @param dst where to write; needs {@link #DATA_PREFIX_LENGTH} bytes remaining
     * @throws IllegalArgumentException if {@code dst} has too little room
     */
    public static void encodeDataPrefix(Data data, ByteBuffer dst) {
        if (dst.remaining() < DATA_PREFIX_LENGTH) {
            throw new IllegalArgumentException("a DATA prefix needs " + DATA_PREFIX_LENGTH
                    + " bytes but the buffer has " + dst.remaining());
        }
        ByteOrder callersOrder = dst.order();
        dst.order(ByteOrder.BIG_ENDIAN);
        try {
            writeHeader(dst, FrameType.DATA, flags(data), Data.FIELDS_LENGTH + data.payload().remaining());
            putDataFields(dst, data);
        } finally {
            dst.order(callersOrder);
        }
    }

    /**
     * How many bytes {@link #encode(Frame, ByteBuffer)} writes for this frame, header included.
     *
     * @param frame the frame to measure
     */
    public static int encodedLength(Frame frame) {
        return HEADER_LENGTH + switch (frame.type()) {
            case OPEN -> 24 + 2 + utf8Length(((Open) frame).objectName());
            case SEEK -> 8;
            case LIVE -> 16;
            case REPORT, DURABLE -> 24;
            case PUBLISH -> 8 + 2 + utf8Length(((Publish) frame).container()) + 2
                    + utf8Length(((Publish) frame).token()) + 2 + utf8Length(((Publish) frame).objectName());
            case MEDIA -> ((Media) frame).payload().remaining();
            case ACCEPT -> 24 + 2 + utf8Length(((Accept) frame).codecs()) + 4
                    + ((Accept) frame).initSegment().remaining();
            case REJECT -> 1 + 4 + 2 + utf8Length(((Reject) frame).message());
            case DATA -> Data.FIELDS_LENGTH + ((Data) frame).payload().remaining();
            case ERROR -> 2 + 2 + utf8Length(((ErrorFrame) frame).message());
            case REDIRECT -> 1 + 2 + utf8Length(((Redirect) frame).target());
            case PAUSE, RESUME, CLOSE, END -> 0;
        };
    }

    /**
     * Decodes exactly one whole frame, as the WebSocket binding carries it (one frame per binary
     * message). Reads {@code message} from its position without moving it; a DATA or MEDIA payload
     * shares its memory.
     *
     * @param message the frame's bytes, nothing before or after
     * @throws ProtocolException if the bytes are not exactly one valid frame
     */
    public static Frame decode(ByteBuffer message) throws ProtocolException {
        ByteBuffer in = message.duplicate();
        FrameDecoder decoder = new FrameDecoder();
        Frame frame = decoder.next(in);
        if (frame == null) {
            decoder.finish();
            throw new ProtocolException(ErrorCode.TRUNCATED_FRAME, "the message is empty");
        }
        if (in.hasRemaining()) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, in.remaining() + " bytes follow the "
                    + frame.type() + " frame; a message carries exactly one frame");
        }
        return frame;
    }

    /**
     * Decodes one payload whose header has been checked. Every field is checked before use; a
     * value a frame record refuses becomes a {@link ProtocolException}, never a runtime exception.
     */
    static Frame decodePayload(FrameType type, int flags, ByteBuffer payload) throws ProtocolException {
        PayloadReader in = new PayloadReader(type, payload);
        try {
            Frame frame = switch (type) {
                case OPEN -> {
                    long startNs = in.nonNegativeI64("startNs");
                    long rate = in.i64("maxReceiveBytesPerSecond");
                    long buffer = in.i64("bufferBytes");
                    yield new Open(in.string("objectName"), startNs, new ClientProfile(rate, buffer),
                            (flags & Open.FLAG_FROM_LIVE) != 0, (flags & Open.FLAG_FOLLOWS_REDIRECTS) != 0);
                }
                case PAUSE -> new Pause();
                case RESUME -> new Resume();
                case SEEK -> new Seek(in.nonNegativeI64("positionNs"), (flags & Seek.FLAG_FROM_LIVE) != 0);
                case CLOSE -> new Close();
                case REPORT -> new Report(in.nonNegativeI64("bufferedNs"), in.nonNegativeI64("bufferedBytes"),
                        in.nonNegativeI64("bytesReceived"));
                case PUBLISH -> {
                    long peak = in.i64("peakBitsPerSecond");
                    String container = in.string("container");
                    String token = in.string("token");
                    yield new Publish(in.string("objectName"), container, peak, token);
                }
                case MEDIA -> new Media(in.rest());
                case ACCEPT -> {
                    long streamId = in.i64("streamId");
                    long fragmentNs = in.i64("fragmentDurationNs");
                    long bits = in.nonNegativeI64("bitsPerSecond");
                    String codecs = in.string("codecs");
                    yield new Accept(streamId, fragmentNs, bits, codecs, in.bytes("initSegment"),
                            (flags & Accept.FLAG_LIVE) != 0);
                }
                case REJECT -> {
                    int code = in.u8("reason");
                    RejectReason reason = RejectReason.ofCode(code);
                    if (reason == null) {
                        throw in.malformed("reason " + code + " is not a version-1 reject reason");
                    }
                    int retry = in.nonNegativeI32("retryAfterSeconds");
                    yield new Reject(reason, retry, in.string("message"));
                }
                case DATA -> new Data(in.nonNegativeI64("sequence"), in.nonNegativeI64("fragmentIndex"),
                        in.i64("presentationNs"), in.i64("deadlineNs"), (flags & Data.FLAG_DISCONTINUITY) != 0,
                        in.rest());
                case END -> new End();
                case ERROR -> {
                    int code = in.u16("code");
                    yield new ErrorFrame(code, in.string("message"));
                }
                case DURABLE -> new Durable(in.nonNegativeI64("fragments"), in.nonNegativeI64("durableNs"),
                        in.nonNegativeI64("bytesReceived"));
                case LIVE -> new Live(in.nonNegativeI64("recordedNs"), in.nonNegativeI64("durableNs"),
                        (flags & Live.FLAG_ENDED) != 0);
                case REDIRECT -> {
                    int code = in.u8("reason");
                    RedirectReason reason = RedirectReason.ofCode(code);
                    if (reason == null) {
                        throw in.malformed("reason " + code + " is not a redirect reason");
                    }
                    yield new Redirect(reason, in.string("target"));
                }
            };
            in.end();
            return frame;
        } catch (IllegalArgumentException e) {
            throw in.malformed(e.getMessage());
        }
    }

    /** Flag bits a frame of this type may set; the rest are reserved and must be zero. */
    static int allowedFlags(FrameType type) {
        return switch (type) {
            case DATA -> Data.FLAG_DISCONTINUITY;
            case OPEN -> Open.FLAG_FROM_LIVE | Open.FLAG_FOLLOWS_REDIRECTS;
            case SEEK -> Seek.FLAG_FROM_LIVE;
            case ACCEPT -> Accept.FLAG_LIVE;
            case LIVE -> Live.FLAG_ENDED;
            default -> 0;
        };
    }

    private static int flags(Frame frame) {
        boolean bit0 = frame instanceof Data d && d.discontinuity()
                || frame instanceof Open o && o.fromLive()
                || frame instanceof Seek s && s.fromLive()
                || frame instanceof Accept a && a.live()
                || frame instanceof Live l && l.ended();
        boolean bit1 = frame instanceof Open o && o.followsRedirects();
        return (bit0 ? 0x01 : 0) | (bit1 ? Open.FLAG_FOLLOWS_REDIRECTS : 0);
    }

    private static void writeHeader(ByteBuffer dst, FrameType type, int flags, int payloadLength) {
        dst.put((byte) MAGIC);
        dst.put((byte) VERSION);
        dst.put((byte) type.code());
        dst.put((byte) flags);
        dst.putInt(payloadLength);
    }

    private static void putDataFields(ByteBuffer dst, Data f) {
        dst.putLong(f.sequence());
        dst.putLong(f.fragmentIndex());
        dst.putLong(f.presentationNs());
        dst.putLong(f.deadlineNs());
    }

    private static void putString(ByteBuffer dst, String s, String field) {
        byte[] bytes = Wire.utf8(s, field);
        dst.putShort((short) bytes.length);
        dst.put(bytes);
    }

    private static int utf8Length(String s) {
        return Wire.utf8(s, "string").length;
    }
}
