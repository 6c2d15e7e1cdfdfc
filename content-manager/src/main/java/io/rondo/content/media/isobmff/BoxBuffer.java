package io.rondo.content.media.isobmff;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds ISO BMFF boxes in memory, big-endian: a box is begun, filled, and ended, which writes its
 * size. The buffer grows as needed and is reused from one moof to the next.
 */
final class BoxBuffer {

    private byte[] bytes;
    private int position;

    BoxBuffer(int capacity) {
        bytes = new byte[capacity];
    }

    /** Empties the buffer for the next box, keeping its memory. */
    void clear() {
        position = 0;
    }

    /** How many bytes it holds. */
    int position() {
        return position;
    }

    /** Starts a box of {@code type}; returns where, for {@link #end}. */
    int begin(String type) {
        int at = position;
        u32(0);
        fourcc(type);
        return at;
    }

    /** Starts a full box: a box with a version and 24 bits of flags. */
    int beginFull(String type, int version, int flags) {
        int at = begin(type);
        u8(version);
        u24(flags);
        return at;
    }

    /** Ends the box begun at {@code at}: writes its size. */
    void end(int at) {
        putU32(at, position - at);
    }

    void u8(int v) {
        ensure(1);
        bytes[position++] = (byte) v;
    }

    void u16(int v) {
        u8(v >>> 8);
        u8(v);
    }

    void u24(int v) {
        u8(v >>> 16);
        u16(v);
    }

    void u32(long v) {
        ensure(4);
        putU32(position, v);
        position += 4;
    }

    void u64(long v) {
        u32(v >>> 32);
        u32(v);
    }

    void fourcc(String type) {
        byte[] b = type.getBytes(StandardCharsets.US_ASCII);
        if (b.length != 4) {
            throw new IllegalArgumentException("a box type has four characters, was '" + type + "'");
        }
        bytes(b);
    }

    void bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, bytes, position, b.length);
        position += b.length;
    }

    void zeros(int n) {
        ensure(n);
        Arrays.fill(bytes, position, position + n, (byte) 0);
        position += n;
    }

    /** Overwrites four bytes at {@code at}, e.g. a field whose value is known only later. */
    void putU32(int at, long v) {
        bytes[at] = (byte) (v >>> 24);
        bytes[at + 1] = (byte) (v >>> 16);
        bytes[at + 2] = (byte) (v >>> 8);
        bytes[at + 3] = (byte) v;
    }

    /** The bytes written so far, as a buffer over this one's memory (valid until the next write). */
    ByteBuffer view() {
        return ByteBuffer.wrap(bytes, 0, position);
    }

    /** A copy of the bytes written so far. */
    byte[] toArray() {
        return Arrays.copyOf(bytes, position);
    }

    private void ensure(int n) {
        if (position + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, position + n));
        }
    }
}
