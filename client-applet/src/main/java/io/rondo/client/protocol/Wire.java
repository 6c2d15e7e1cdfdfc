package io.rondo.client.protocol;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Field checks shared by the frame records, so a frame that exists can always be encoded. */
final class Wire {
    /** A string's length prefix is an unsigned 16-bit count of UTF-8 bytes. */
    static final int MAX_STRING_BYTES = 0xFFFF;

    private Wire() {
    }

    /** The strict UTF-8 bytes of {@code s}: an unpaired surrogate or more than 65535 bytes is refused. */
    static byte[] utf8(String s, String field) {
        if (s == null) {
            throw new IllegalArgumentException(field + " is null");
        }
        ByteBuffer bytes;
        try {
            bytes = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(s));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(field + " is not valid Unicode (an unpaired surrogate?)", e);
        }
        if (bytes.remaining() > MAX_STRING_BYTES) {
            throw new IllegalArgumentException(
                    field + " is " + bytes.remaining() + " bytes of UTF-8; the most is " + MAX_STRING_BYTES);
        }
        byte[] out = new byte[bytes.remaining()];
        bytes.get(out);
        return out;
    }

    static long nonNegative(long value, String field) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " is " + value + "; it must not be negative");
        }
        return value;
    }

    static long positive(long value, String field) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " is " + value + "; it must be positive");
        }
        return value;
    }

    /** A read-only view of {@code b}'s remaining bytes, from position 0, that callers cannot move. */
    static ByteBuffer freeze(ByteBuffer b, String field) {
        if (b == null) {
            throw new IllegalArgumentException(field + " is null");
        }
        return b.slice().asReadOnlyBuffer();
    }
}
