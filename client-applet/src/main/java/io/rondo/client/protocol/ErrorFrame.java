package io.rondo.client.protocol;

import java.nio.charset.StandardCharsets;

/**
 * ERROR: the stream or the connection failed; the sender closes the connection after it. Named
 * ErrorFrame so as not to shadow {@link java.lang.Error}.
 *
 * @param code a 16-bit code from the table in {@link ErrorCode}; a code it does not define is still
 *     legal on the wire and means a fatal error
 * @param message what went wrong, for a person
 */
public record ErrorFrame(int code, String message) implements Frame {
    /** Checks the code fits 16 bits and the message fits its length prefix. */
    public ErrorFrame {
        if (code < 0 || code > 0xFFFF) {
            throw new IllegalArgumentException("error code " + code + " does not fit 16 bits");
        }
        Wire.utf8(message, "message");
    }

    /**
     * An error with a code from the table.
     *
     * @param code the error's kind
     * @param message what went wrong, for a person
     */
    public ErrorFrame(ErrorCode code, String message) {
        this(code.code(), message);
    }

    /** The code as a table entry, or null for a code this version does not define. */
    public ErrorCode errorCode() {
        return ErrorCode.ofCode(code);
    }

    @Override
    public FrameType type() {
        return FrameType.ERROR;
    }

    /** Shortens {@code message} so its UTF-8 fits a string field, without splitting a character. */
    static String truncateMessage(String message) {
        String m = message == null ? "" : message;
        if (m.length() * 3 <= Wire.MAX_STRING_BYTES && !hasSurrogate(m)) {
            return m;
        }
        StringBuilder out = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < m.length(); ) {
            int cp = m.codePointAt(i);
            i += Character.charCount(cp);
            if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                cp = '?';
            }
            int n = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + n > Wire.MAX_STRING_BYTES) {
                break;
            }
            out.appendCodePoint(cp);
            bytes += n;
        }
        return out.toString();
    }

    private static boolean hasSurrogate(String m) {
        for (int i = 0; i < m.length(); i++) {
            if (Character.isSurrogate(m.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
