package io.rondo.systemtest;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.ProtocolException;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes the frame decoder that both the server and every client run on bytes from the network.
 * With {@code JAZZER_FUZZ=1} Jazzer explores for 20 s; in a plain test run it replays the seed
 * corpus in {@code FrameDecoderFuzzTestInputs/decode/}. The input is a {@link SplitInput}: bytes on
 * the wire and how TCP split them. The properties: only a {@link ProtocolException} escapes, it is final, how
 * TCP splits the bytes changes nothing, and no allocation exceeds the decoder's frame limit.
 */
class FrameDecoderFuzzTest {

    /** A server's kind of limit: it only ever receives small client frames. */
    private static final int SMALL_LIMIT = 4096;
    /**
     * Allocation a decode may make beyond the limit and copies of its input: lists, frames, messages,
     * and what the JVM allocates on the thread the first time a path runs (class loading, lambdas).
     * A decoder that believed a hostile length would allocate gigabytes, far past this.
     */
    private static final long SLACK_BYTES = 4L << 20;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** What a decoder made of a byte stream: the frames, then the fault it stopped at (or null). */
    private record Outcome(List<Frame> frames, ErrorCode failure, long allocatedBytes) {
    }

    // A peer's bytes, however hostile and however split, never crash or balloon the server or the player.
    @FuzzTest(maxDuration = "20s")
    void decode(byte[] bytes) {
        if (bytes.length == 0) {
            return;
        }
        SplitInput input = SplitInput.of(bytes);
        int[] sizes = input.sizes();
        byte[] wire = input.wire();

        Outcome whole = warm(() -> run(new FrameDecoder(), wire, new int[] {0}));
        Outcome split = warm(() -> run(new FrameDecoder(), wire, sizes));
        Outcome small = warm(() -> run(new FrameDecoder(SMALL_LIMIT), wire, sizes));

        assertEquals(whole.frames(), split.frames(), "the frames do not depend on how the bytes were split");
        assertEquals(whole.failure(), split.failure(), "nor does the fault");
        long copies = 4L * wire.length;
        assertTrue(whole.allocatedBytes() <= FrameCodec.MAX_PAYLOAD_LENGTH + copies + SLACK_BYTES,
            "allocated " + whole.allocatedBytes());
        assertTrue(split.allocatedBytes() <= FrameCodec.MAX_PAYLOAD_LENGTH + copies + SLACK_BYTES,
            "allocated " + split.allocatedBytes());
        assertTrue(small.allocatedBytes() <= SMALL_LIMIT + copies + SLACK_BYTES,
            "a decoder limited to " + SMALL_LIMIT + " bytes allocated " + small.allocatedBytes());
    }

    /**
     * The second of two runs: the first loads (and, when fuzzing, instruments) the classes its path
     * needs on this thread, allocation that is the JVM's, not the decoder's.
     */
    private static Outcome warm(Supplier<Outcome> decode) {
        decode.get();
        return decode.get();
    }

    /** Feeds {@code wire} in chunks of the given sizes, cycled; anything but a ProtocolException escapes. */
    private static Outcome run(FrameDecoder decoder, byte[] wire, int[] sizes) {
        List<Frame> frames = new ArrayList<>();
        ErrorCode failure = null;
        boolean ended = false;
        long before = THREADS.getCurrentThreadAllocatedBytes();
        try {
            int position = 0;
            for (int i = 0; position < wire.length; i++) {
                int size = sizes[i % sizes.length];
                int n = size == 0 ? wire.length - position : Math.min(size, wire.length - position);
                ByteBuffer chunk = ByteBuffer.wrap(Arrays.copyOfRange(wire, position, position + n));
                position += n;
                for (Frame frame = decoder.next(chunk); frame != null; frame = decoder.next(chunk)) {
                    frames.add(frame);
                }
                assertEquals(0, chunk.remaining(), "a chunk is consumed whole when no frame completes");
            }
            ended = true;
            decoder.finish();
        } catch (ProtocolException e) {
            failure = e.code();
        }
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        if (failure != null && !ended) {
            ErrorCode first = failure;
            ProtocolException again = assertThrows(ProtocolException.class,
                () -> decoder.next(ByteBuffer.wrap(new byte[] {0x52, 0x01, 0x05, 0, 0, 0, 0, 0})),
                "after a fault the framing is lost: the decoder refuses everything");
            assertEquals(first, again.code());
        }
        return new Outcome(frames, failure, allocated);
    }
}
