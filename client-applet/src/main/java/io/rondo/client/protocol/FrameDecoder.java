package io.rondo.client.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns bytes as TCP delivers them, in chunks that split frames anywhere, into whole frames. It
 * holds at most one frame's bytes: a frame that arrives whole inside one chunk is decoded in place,
 * and only a frame split across chunks is gathered, into an array allocated once its header has
 * declared a length within the maximum. The header is checked byte by byte as it arrives, so a
 * peer that is not speaking this protocol (an HTTP client on the stream port, say) is refused at
 * its first byte.
 *
 * <p>A DATA or MEDIA payload (or an ACCEPT init segment) decoded in place is a read-only slice of the chunk
 * it came in, not a copy: it is valid until the caller reuses that chunk's memory. One gathered
 * across chunks has an array of its own.
 *
 * <p>After a {@link ProtocolException} the framing is lost; the decoder refuses all further input
 * with the same complaint. Not thread-safe: one decoder per connection, used by one thread.
 */
public final class FrameDecoder {
    private final int maxPayloadLength;
    private final byte[] header = new byte[FrameCodec.HEADER_LENGTH];
    private int headerFill;
    private FrameType type;
    private int flags;
    private int payloadLength;
    private byte[] gathered;
    private int gatheredFill;
    private ProtocolException failure;
    private int largestAllocation;

    /** A decoder that accepts payloads up to the protocol's maximum, {@link FrameCodec#MAX_PAYLOAD_LENGTH}. */
    public FrameDecoder() {
        this(FrameCodec.MAX_PAYLOAD_LENGTH);
    }

    /**
     * A decoder with a lower limit, for a peer that knows it never receives large frames (a server
     * only receives client frames, which are small).
     *
     * @param maxPayloadLength the longest payload accepted, at most {@link FrameCodec#MAX_PAYLOAD_LENGTH}
     */
    public FrameDecoder(int maxPayloadLength) {
        if (maxPayloadLength < 0 || maxPayloadLength > FrameCodec.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("maxPayloadLength " + maxPayloadLength + " is outside 0.."
                    + FrameCodec.MAX_PAYLOAD_LENGTH);
        }
        this.maxPayloadLength = maxPayloadLength;
    }

    /**
     * Consumes bytes from {@code chunk} up to the end of the next whole frame and returns it, or
     * consumes all of {@code chunk} and returns null if no frame completes in it. Call again with
     * the same chunk until it returns null to get every frame it completes.
     *
     * @param chunk bytes received, read from its position; its position is advanced past what was used
     * @throws ProtocolException if the bytes are not a valid frame
     */
    public Frame next(ByteBuffer chunk) throws ProtocolException {
        if (failure != null) {
            throw new ProtocolException(failure.code(), "the stream already failed: " + failure.getMessage());
        }
        try {
            return step(chunk);
        } catch (ProtocolException e) {
            failure = e;
            throw e;
        }
    }

    /**
     * Every frame that {@code chunk} completes, in order; consumes all of it.
     *
     * @param chunk bytes received, read from its position to its limit
     * @throws ProtocolException if the bytes are not valid frames
     */
    public List<Frame> feed(ByteBuffer chunk) throws ProtocolException {
        List<Frame> frames = new ArrayList<>();
        for (Frame f = next(chunk); f != null; f = next(chunk)) {
            frames.add(f);
        }
        return frames;
    }

    /**
     * Tells the decoder the byte stream has ended (the connection closed).
     *
     * @throws ProtocolException {@link ErrorCode#TRUNCATED_FRAME} if it ended inside a frame
     */
    public void finish() throws ProtocolException {
        if (failure != null) {
            throw new ProtocolException(failure.code(), "the stream already failed: " + failure.getMessage());
        }
        if (headerFill == 0) {
            return;
        }
        String what = headerFill < FrameCodec.HEADER_LENGTH
                ? "inside a frame header, after " + headerFill + " of its " + FrameCodec.HEADER_LENGTH + " bytes"
                : "inside a " + type + " frame, after " + (FrameCodec.HEADER_LENGTH + gatheredFill) + " of its "
                        + (FrameCodec.HEADER_LENGTH + payloadLength) + " bytes";
        throw new ProtocolException(ErrorCode.TRUNCATED_FRAME, "the connection ended " + what);
    }

    /** Whether some bytes of an incomplete frame are held. */
    public boolean inFrame() {
        return headerFill > 0;
    }

    /** The largest array this decoder has allocated, in bytes; for tests that bound its memory. */
    int largestAllocation() {
        return largestAllocation;
    }

    private Frame step(ByteBuffer chunk) throws ProtocolException {
        while (headerFill < FrameCodec.HEADER_LENGTH) {
            if (!chunk.hasRemaining()) {
                return null;
            }
            header[headerFill] = chunk.get();
            headerFill++;
            checkHeaderByte(headerFill - 1);
        }
        if (gathered == null && chunk.remaining() >= payloadLength) {
            ByteBuffer payload = chunk.slice(chunk.position(), payloadLength);
            chunk.position(chunk.position() + payloadLength);
            return complete(payload);
        }
        if (gathered == null) {
            gathered = new byte[payloadLength];
            largestAllocation = Math.max(largestAllocation, payloadLength);
        }
        int n = Math.min(chunk.remaining(), payloadLength - gatheredFill);
        chunk.get(gathered, gatheredFill, n);
        gatheredFill += n;
        if (gatheredFill < payloadLength) {
            return null;
        }
        return complete(ByteBuffer.wrap(gathered));
    }

    private Frame complete(ByteBuffer payload) throws ProtocolException {
        FrameType t = type;
        int f = flags;
        headerFill = 0;
        gathered = null;
        gatheredFill = 0;
        type = null;
        return FrameCodec.decodePayload(t, f, payload);
    }

    private void checkHeaderByte(int index) throws ProtocolException {
        int b = Byte.toUnsignedInt(header[index]);
        switch (index) {
            case 0 -> {
                if (b != FrameCodec.MAGIC) {
                    throw new ProtocolException(ErrorCode.MALFORMED_FRAME, String.format(
                            "bad magic 0x%02x%s where a frame starts; expected 0x52 ('R'): the peer is not speaking "
                                    + "Rondo's stream protocol", b, printable(b)));
                }
            }
            case 1 -> {
                if (b != FrameCodec.VERSION) {
                    throw new ProtocolException(ErrorCode.UNSUPPORTED_VERSION, "protocol version " + b
                            + " is not supported; this peer speaks version " + FrameCodec.VERSION);
                }
            }
            case 2 -> {
                type = FrameType.ofCode(b);
                if (type == null) {
                    throw new ProtocolException(ErrorCode.UNKNOWN_FRAME_TYPE, String.format(
                            "frame type 0x%02x is not defined in protocol version %d", b, FrameCodec.VERSION));
                }
            }
            case 3 -> {
                flags = b;
                int reserved = b & ~FrameCodec.allowedFlags(type);
                if (reserved != 0) {
                    throw new ProtocolException(ErrorCode.MALFORMED_FRAME, String.format(
                            "%s frame sets reserved flag bits 0x%02x", type, reserved));
                }
            }
            case 7 -> {
                long length = Integer.toUnsignedLong(ByteBuffer.wrap(header, 4, 4).getInt());
                if (length > maxPayloadLength) {
                    throw new ProtocolException(ErrorCode.FRAME_TOO_LARGE, type + " frame declares a " + length
                            + "-byte payload; the most accepted is " + maxPayloadLength);
                }
                payloadLength = (int) length;
            }
            default -> {
                // Bytes 4 to 6 are the length's high bytes, checked with byte 7.
            }
        }
    }

    private static String printable(int b) {
        return b >= 0x20 && b < 0x7f ? " ('" + (char) b + "')" : "";
    }
}
