package io.rondo.client.protocol;

import java.nio.ByteBuffer;

/**
 * DATA: one fragment of the stream (papers/001 Section 1.1), as the sender transmits it by its
 * deadline. Times are on the stream's clock: {@code deadlineNs} counts from the moment the server
 * sent ACCEPT, so the two peers need no common wall clock.
 *
 * @param sequence 0 for the stream's first DATA, one more for each after it
 * @param fragmentIndex the fragment's index in the object
 * @param presentationNs the fragment's first presentation time, in nanoseconds
 * @param deadlineNs when the fragment was due fully sent, in nanoseconds after ACCEPT
 * @param discontinuity set on the first DATA after a SEEK (flag bit 0 of the header)
 * @param payload the fragment's bytes, as cut from the container
 */
public record Data(long sequence, long fragmentIndex, long presentationNs, long deadlineNs, boolean discontinuity,
                   ByteBuffer payload) implements Frame {
    /** Header flag bit of {@link #discontinuity()}. */
    public static final int FLAG_DISCONTINUITY = 0x01;

    /** Bytes of the fixed fields that precede the fragment's bytes in the payload. */
    public static final int FIELDS_LENGTH = 32;

    /** The most fragment bytes one DATA frame carries. */
    public static final int MAX_FRAGMENT_BYTES = FrameCodec.MAX_PAYLOAD_LENGTH - FIELDS_LENGTH;

    /** Checks the counters are not negative and the fragment fits one frame. */
    public Data {
        Wire.nonNegative(sequence, "sequence");
        Wire.nonNegative(fragmentIndex, "fragmentIndex");
        payload = Wire.freeze(payload, "payload");
        if (payload.remaining() > MAX_FRAGMENT_BYTES) {
            throw new IllegalArgumentException("DATA fragment is " + payload.remaining() + " bytes; the most is "
                    + MAX_FRAGMENT_BYTES);
        }
    }

    /**
     * The fragment's bytes, as a read-only buffer of its own (reading it does not change this frame).
     * A decoded frame's payload may share memory with the bytes it was decoded from; see
     * {@link FrameDecoder}.
     */
    @Override
    public ByteBuffer payload() {
        return payload.duplicate();
    }

    @Override
    public FrameType type() {
        return FrameType.DATA;
    }

    @Override
    public String toString() {
        return "Data[sequence=" + sequence + ", fragmentIndex=" + fragmentIndex + ", presentationNs=" + presentationNs
                + ", deadlineNs=" + deadlineNs + ", discontinuity=" + discontinuity + ", payload=" + payload.remaining()
                + " bytes]";
    }
}
