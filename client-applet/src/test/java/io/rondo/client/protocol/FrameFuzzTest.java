package io.rondo.client.protocol;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated bytes, as a hostile or broken peer would send: the decoder may accept them or
 * raise a ProtocolException, but must never throw anything else nor allocate past its limit.
 */
class FrameFuzzTest {
    private static final int INPUTS = 20_000;
    private static final int LIMIT = 1 << 16;

    /**
     * The timeout guards against a hang (a decoder looping on some input fails the test instead of
     * stalling the build) with room for a loaded machine; how fast it decodes is not asserted.
     */
    @Test
    void randomAndMutatedInputNeverEscapesAsAnythingButProtocolException() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), this::fuzz, "the decoder hangs on some input");
    }

    private void fuzz() {
        Random random = new Random(20_240_601L);
        List<Frame> seeds = Frames.all().stream().filter(f -> FrameCodec.encodedLength(f) < 4096).toList();
        int rejected = 0;
        for (int i = 0; i < INPUTS; i++) {
            byte[] input = i % 4 == 0 ? randomBytes(random) : mutate(random, seeds);
            FrameDecoder decoder = new FrameDecoder(LIMIT);
            try {
                for (int at = 0; at < input.length; ) {
                    int n = Math.min(input.length - at, 1 + random.nextInt(input.length));
                    decoder.feed(ByteBuffer.wrap(input, at, n));
                    at += n;
                }
                decoder.finish();
            } catch (ProtocolException expected) {
                rejected++;
                assertTrue(expected.getMessage() != null && !expected.getMessage().isEmpty());
            } catch (RuntimeException | Error e) {
                throw new AssertionError("input " + i + " " + Frames.toHex(ByteBuffer.wrap(input)) + " threw " + e, e);
            }
            int allocated = decoder.largestAllocation();
            assertTrue(allocated <= LIMIT, "input " + i + " allocated " + allocated);
            try {
                FrameCodec.decode(ByteBuffer.wrap(input));
            } catch (ProtocolException expected) {
                rejected++;
            } catch (RuntimeException | Error e) {
                throw new AssertionError("message " + Frames.toHex(ByteBuffer.wrap(input)) + " threw " + e, e);
            }
        }
        assertTrue(rejected > INPUTS / 2, "most of the inputs must be refused, were " + rejected);
    }

    private static byte[] randomBytes(Random random) {
        byte[] b = new byte[random.nextInt(64)];
        random.nextBytes(b);
        if (b.length > 2 && random.nextBoolean()) {
            b[0] = (byte) FrameCodec.MAGIC;
            b[1] = (byte) FrameCodec.VERSION;
        }
        return b;
    }

    private static byte[] mutate(Random random, List<Frame> seeds) {
        byte[] wire = Frames.concat(List.of(seeds.get(random.nextInt(seeds.size())),
                seeds.get(random.nextInt(seeds.size()))));
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = random.nextInt(wire.length);
            switch (random.nextInt(5)) {
                case 0 -> wire[at] = (byte) random.nextInt(256);
                case 1 -> wire[at] ^= (byte) (1 << random.nextInt(8));
                case 2 -> wire[at] = (byte) (random.nextBoolean() ? 0xff : 0x80);
                case 3 -> wire = Arrays.copyOf(wire, at);
                default -> {
                    byte[] longer = Arrays.copyOf(wire, wire.length + 1 + random.nextInt(8));
                    for (int k = wire.length; k < longer.length; k++) {
                        longer[k] = (byte) random.nextInt(256);
                    }
                    wire = longer;
                }
            }
            if (wire.length == 0) {
                break;
            }
        }
        return wire;
    }
}
