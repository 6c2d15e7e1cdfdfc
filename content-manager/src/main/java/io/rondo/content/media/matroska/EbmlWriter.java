package io.rondo.content.media.matroska;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Writes EBML elements (RFC 8794): IDs as their bytes, sizes as the shortest VINT that is not the
 * reserved all-ones value, integers in as few bytes as hold them. For the headers a remuxer writes
 * around bytes it copies; never for payload.
 */
public final class EbmlWriter {

    private EbmlWriter() {
    }

    /** The header of an element whose size is not known, as a live stream's Segment has: its ID, then 8 bytes. */
    public static byte[] unknownSizeHeader(int id) {
        ByteBuffer out = ByteBuffer.allocate(idLength(id) + 8);
        putId(out, id);
        out.put((byte) 0x01);
        while (out.hasRemaining()) {
            out.put((byte) 0xFF);
        }
        return out.array();
    }

    /** An element holding {@code parts}, one after the other. */
    public static byte[] element(int id, byte[]... parts) {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            data.writeBytes(part);
        }
        ByteBuffer out = ByteBuffer.allocate(headerLength(id, data.size()) + data.size());
        putHeader(out, id, data.size());
        out.put(data.toByteArray());
        return out.array();
    }

    /** An unsigned integer element, in as few bytes as {@code value} needs. */
    public static byte[] uint(int id, long value) {
        ByteBuffer data = ByteBuffer.allocate(uintLength(value));
        putUint(data, value, data.capacity());
        return element(id, data.array());
    }

    /** A float element of 8 bytes. */
    public static byte[] float64(int id, double value) {
        return element(id, ByteBuffer.allocate(8).putDouble(value).array());
    }

    /** A string element, UTF-8. */
    public static byte[] string(int id, String value) {
        return element(id, value.getBytes(StandardCharsets.UTF_8));
    }

    /** The bytes of an element's ID and of the shortest size VINT for {@code size}. */
    public static int headerLength(int id, long size) {
        return idLength(id) + sizeLength(size);
    }

    /** Puts an element's ID and the shortest size VINT for {@code size}. */
    public static void putHeader(ByteBuffer out, int id, long size) {
        putId(out, id);
        int length = sizeLength(size);
        long marked = size | (1L << (7 * length));
        for (int i = length - 1; i >= 0; i--) {
            out.put((byte) (marked >>> (8 * i)));
        }
    }

    /** How many bytes an unsigned integer element needs for {@code value}: 1 to 8. */
    public static int uintLength(long value) {
        int n = 1;
        while (n < 8 && value >>> (8 * n) != 0) {
            n++;
        }
        return n;
    }

    /** Puts {@code value} as an unsigned integer of {@code length} bytes, big-endian. */
    public static void putUint(ByteBuffer out, long value, int length) {
        for (int i = length - 1; i >= 0; i--) {
            out.put((byte) (value >>> (8 * i)));
        }
    }

    private static void putId(ByteBuffer out, int id) {
        for (int i = idLength(id) - 1; i >= 0; i--) {
            out.put((byte) (id >>> (8 * i)));
        }
    }

    private static int idLength(int id) {
        return id >>> 24 != 0 ? 4 : id >>> 16 != 0 ? 3 : id >>> 8 != 0 ? 2 : 1;
    }

    /** The shortest VINT length for {@code size}; the all-ones value of each length means "unknown". */
    private static int sizeLength(long size) {
        int length = 1;
        while (length < 8 && size >= (1L << (7 * length)) - 1) {
            length++;
        }
        return length;
    }
}
