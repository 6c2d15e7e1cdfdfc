package io.rondo.systemtest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A fuzz input read as bytes on the wire and how TCP split them: the first byte says how many
 * piece sizes follow (1 to 8), the next bytes are those sizes (0: the rest at once), cycled, and the
 * remainder is what arrives.
 *
 * @param sizes the piece sizes, cycled
 * @param wire  the bytes that arrive
 */
public record SplitInput(int[] sizes, byte[] wire) {

    /** Reads a non-empty fuzz input. */
    public static SplitInput of(byte[] input) {
        int count = (input[0] & 0x07) + 1;
        int[] sizes = new int[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = 1 + i < input.length ? input[1 + i] & 0xff : 0;
        }
        return new SplitInput(sizes, Arrays.copyOfRange(input, Math.min(input.length, 1 + count), input.length));
    }

    /** The wire in pieces of the given sizes, each a copy. */
    public List<byte[]> pieces() {
        List<byte[]> pieces = new ArrayList<>();
        int position = 0;
        for (int i = 0; position < wire.length; i++) {
            int size = sizes[i % sizes.length];
            int n = size == 0 ? wire.length - position : Math.min(size, wire.length - position);
            pieces.add(Arrays.copyOfRange(wire, position, position + n));
            position += n;
        }
        return pieces;
    }
}
