package io.rondo.client.protocol;

import java.nio.ByteBuffer;

/**
 * MEDIA: bytes of a published stream's container, in the order the publisher's encoder wrote them.
 * The chunking means nothing: the server cuts the bytes into fragments by the container's own
 * structure, so a publisher sends what it has, as it has it.
 *
 * @param payload the container's bytes; at least one
 */
public record Media(ByteBuffer payload) implements Frame {
    /**
     * The most bytes one MEDIA carries within a server's default client-frame limit
     * ({@code streams.maxClientFrame}, 64 KiB with the header): 65,528. A publisher that keeps to
     * it never meets the limit.
     */
    public static final int MAX_BYTES = 64 * 1024 - FrameCodec.HEADER_LENGTH;

    /** Checks there is at least one byte and the frame fits the maximum payload. */
    public Media {
        payload = Wire.freeze(payload, "payload");
        if (!payload.hasRemaining()) {
            throw new IllegalArgumentException("MEDIA carries no bytes; it must carry at least one");
        }
        if (payload.remaining() > FrameCodec.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("MEDIA payload is " + payload.remaining() + " bytes; the most is "
                    + FrameCodec.MAX_PAYLOAD_LENGTH);
        }
    }

    /**
     * The bytes, as a read-only buffer of its own (reading it does not change this frame). A decoded
     * frame's payload may share memory with the bytes it was decoded from; see {@link FrameDecoder}.
     */
    @Override
    public ByteBuffer payload() {
        return payload.duplicate();
    }

    @Override
    public FrameType type() {
        return FrameType.MEDIA;
    }

    @Override
    public String toString() {
        return "Media[payload=" + payload.remaining() + " bytes]";
    }
}
