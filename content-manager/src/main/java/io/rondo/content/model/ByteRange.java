package io.rondo.content.model;

/** {@code length} bytes from {@code offset}. */
public record ByteRange(long offset, long length) {

    public ByteRange {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("a byte range needs offset >= 0 and length >= 0, was "
                + offset + "+" + length);
        }
    }

    /** The offset just past the range. */
    public long end() {
        return offset + length;
    }
}
