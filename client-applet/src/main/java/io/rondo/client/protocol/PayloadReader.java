package io.rondo.client.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads one payload's fields in order, checking each length against what is left before it reads or
 * allocates anything, and naming the field in every complaint.
 */
final class PayloadReader {
    private final FrameType type;
    private final ByteBuffer payload;

    PayloadReader(FrameType type, ByteBuffer payload) {
        this.type = type;
        this.payload = payload;
    }

    long i64(String field) throws ProtocolException {
        need(8, field);
        return payload.getLong();
    }

    long nonNegativeI64(String field) throws ProtocolException {
        long v = i64(field);
        if (v < 0) {
            throw malformed(field + " is " + v + "; it must not be negative");
        }
        return v;
    }

    int nonNegativeI32(String field) throws ProtocolException {
        need(4, field);
        int v = payload.getInt();
        if (v < 0) {
            throw malformed(field + " is " + v + "; it must not be negative");
        }
        return v;
    }

    int u16(String field) throws ProtocolException {
        need(2, field);
        return Short.toUnsignedInt(payload.getShort());
    }

    int u8(String field) throws ProtocolException {
        need(1, field);
        return Byte.toUnsignedInt(payload.get());
    }

    String string(String field) throws ProtocolException {
        int length = u16(field + " length");
        need(length, field);
        ByteBuffer bytes = payload.slice(payload.position(), length);
        payload.position(payload.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw malformed(field + " is not valid UTF-8");
        }
    }

    ByteBuffer bytes(String field) throws ProtocolException {
        need(4, field + " length");
        long length = Integer.toUnsignedLong(payload.getInt());
        need(length, field);
        ByteBuffer bytes = payload.slice(payload.position(), (int) length);
        payload.position(payload.position() + (int) length);
        return bytes;
    }

    ByteBuffer rest() {
        ByteBuffer bytes = payload.slice();
        payload.position(payload.limit());
        return bytes;
    }

    void end() throws ProtocolException {
        if (payload.hasRemaining()) {
            throw malformed(payload.remaining() + " trailing bytes after the payload's last field");
        }
    }

    ProtocolException malformed(String what) {
        return new ProtocolException(ErrorCode.MALFORMED_FRAME, type + " frame: " + what);
    }

    private void need(long bytes, String field) throws ProtocolException {
        if (bytes > payload.remaining()) {
            throw malformed(field + " needs " + bytes + " bytes but only " + payload.remaining()
                    + " are left in the " + payload.limit() + "-byte payload");
        }
    }
}
