package io.rondo.server.admin;

import java.nio.charset.StandardCharsets;

/** Percent-encoding of URL paths (RFC 3986 Section 2.1). */
final class PercentEncoding {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PercentEncoding() {
    }

    /**
     * {@code path} with every byte of its UTF-8 percent-encoded but the unreserved characters
     * (RFC 3986 Section 2.3: letters, digits, {@code -._~}) and {@code /}.
     */
    static String path(String path) {
        StringBuilder encoded = new StringBuilder(path.length());
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "/-._~".indexOf(c) >= 0) {
                encoded.append(c);
            } else {
                encoded.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return encoded.toString();
    }
}
