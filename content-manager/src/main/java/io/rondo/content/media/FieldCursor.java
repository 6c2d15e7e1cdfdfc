package io.rondo.content.media;

import java.nio.ByteBuffer;

/**
 * Reads the fields of one element or box held in memory, big-endian, and fails with the element's
 * name and offset when it ends before its fields do, instead of a buffer underflow.
 */
public final class FieldCursor {

    private final ByteBuffer buf;
    private final long base;
    private final String what;

    /**
     * @param buf   the bytes, from its position to its limit (read through a duplicate: its position stays)
     * @param base  the file offset of {@code buf}'s index 0
     * @param what  the element for messages, e.g. {@code the tfhd at byte 1308}
     */
    public FieldCursor(ByteBuffer buf, long base, String what) {
        this.buf = buf.duplicate();
        this.base = base;
        this.what = what;
    }

    /** A cursor of its own over the same bytes, at the same position. */
    public FieldCursor copy() {
        return new FieldCursor(buf, base, what);
    }

    /** The file offset of the next byte. */
    public long offset() {
        return base + buf.position();
    }

    /** How many bytes are left. */
    public int remaining() {
        return buf.remaining();
    }

    /** What the fields are, for messages: the box or element and where it is. */
    public String what() {
        return what;
    }

    /** An unsigned 8-bit field. */
    public int u8() throws MediaFormatException {
        need(1);
        return buf.get() & 0xFF;
    }

    /** An unsigned 16-bit field, big-endian. */
    public int u16() throws MediaFormatException {
        need(2);
        return buf.getShort() & 0xFFFF;
    }

    /** An unsigned 32-bit field, big-endian. */
    public long u32() throws MediaFormatException {
        need(4);
        return buf.getInt() & 0xFFFF_FFFFL;
    }

    /** A signed 32-bit field (a composition offset of version 1, a data offset). */
    public int s32() throws MediaFormatException {
        need(4);
        return buf.getInt();
    }

    /** A signed 64-bit field (an edit's media time of version 1, where -1 marks an empty edit). */
    public long s64() throws MediaFormatException {
        need(8);
        return buf.getLong();
    }

    /** A 64-bit field that must fit a signed long (times and sizes beyond 2^63 are corrupt). */
    public long u64() throws MediaFormatException {
        need(8);
        long v = buf.getLong();
        if (v < 0) {
            throw MediaFormatException.corrupt(what + " holds a 64-bit field too large to be real ("
                + Long.toUnsignedString(v) + ")");
        }
        return v;
    }

    /** Skips {@code n} bytes, failing where fewer are left. */
    public void skip(long n) throws MediaFormatException {
        need(n);
        buf.position(buf.position() + (int) n);
    }

    /** The next {@code n} bytes, as a buffer of their own (index 0 = {@link #offset()}). */
    public ByteBuffer take(long n) throws MediaFormatException {
        need(n);
        ByteBuffer slice = buf.slice(buf.position(), (int) n);
        buf.position(buf.position() + (int) n);
        return slice;
    }

    private void need(long n) throws MediaFormatException {
        if (n < 0 || n > buf.remaining()) {
            throw MediaFormatException.corrupt(what + " ends at byte " + (base + buf.limit())
                + ", before the fields it should hold");
        }
    }
}
