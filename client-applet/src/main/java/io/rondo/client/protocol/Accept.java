package io.rondo.client.protocol;

import java.nio.ByteBuffer;

/**
 * ACCEPT: the server admitted the stream and says what it will send. The init segment is what a
 * decoder (or Media Source Extensions) needs before the first fragment: the WebM header up to its
 * first cluster, or the fragmented MP4 ftyp and moov boxes.
 *
 * @param streamId the server's name for this stream, as its logs and admin API show it
 * @param fragmentDurationNs display time of one fragment (the round length), in nanoseconds; positive
 * @param bitsPerSecond the object's mean bit rate; not negative
 * @param codecs the RFC 6381 codecs string, e.g. {@code vp9,opus}
 * @param initSegment the container's initialisation bytes; may be empty
 * @param live whether the object is being recorded now (flag bit 0): LIVE frames follow, the first
 *     right after this ACCEPT
 */
public record Accept(long streamId, long fragmentDurationNs, long bitsPerSecond, String codecs,
                     ByteBuffer initSegment, boolean live) implements Frame {
    /** Header flag bit of {@link #live()}. */
    public static final int FLAG_LIVE = 0x01;

    /** Checks the fields and that the frame fits the maximum payload. */
    public Accept {
        Wire.positive(fragmentDurationNs, "fragmentDurationNs");
        Wire.nonNegative(bitsPerSecond, "bitsPerSecond");
        int codecsBytes = Wire.utf8(codecs, "codecs").length;
        initSegment = Wire.freeze(initSegment, "initSegment");
        long payload = 24L + 2 + codecsBytes + 4 + initSegment.remaining();
        if (payload > FrameCodec.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("ACCEPT payload would be " + payload + " bytes; the most is "
                    + FrameCodec.MAX_PAYLOAD_LENGTH);
        }
    }

    /**
     * An ACCEPT of an object that is not being recorded.
     *
     * @param streamId the server's name for this stream
     * @param fragmentDurationNs display time of one fragment, in nanoseconds; positive
     * @param bitsPerSecond the object's mean bit rate; not negative
     * @param codecs the RFC 6381 codecs string
     * @param initSegment the container's initialisation bytes; may be empty
     */
    public Accept(long streamId, long fragmentDurationNs, long bitsPerSecond, String codecs, ByteBuffer initSegment) {
        this(streamId, fragmentDurationNs, bitsPerSecond, codecs, initSegment, false);
    }

    /** The init segment, as a read-only buffer of its own (reading it does not change this frame). */
    @Override
    public ByteBuffer initSegment() {
        return initSegment.duplicate();
    }

    @Override
    public FrameType type() {
        return FrameType.ACCEPT;
    }
}
