package io.rondo.server.http;

/**
 * One satisfiable range of a representation, resolved against its length: bytes {@code first}
 * to {@code last}, both inclusive (RFC 9110 Section 14.1.1).
 */
public record ByteRangeSpec(long first, long last) {

    public ByteRangeSpec {
        if (first < 0 || last < first) {
            throw new IllegalArgumentException("a byte range needs 0 <= first <= last, was " + first + "-" + last);
        }
    }

    public long length() {
        return last - first + 1;
    }

    /** {@code bytes 0-499/1234}: the Content-Range of this range of a representation of {@code size} bytes. */
    public String contentRange(long size) {
        return "bytes " + first + "-" + last + "/" + size;
    }
}
