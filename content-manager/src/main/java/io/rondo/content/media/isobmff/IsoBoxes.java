package io.rondo.content.media.isobmff;

import io.rondo.content.media.FieldCursor;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * Walking the boxes of an ISO BMFF file (ISO/IEC 14496-12): top-level boxes by their headers
 * through a {@link MediaFile}, and the children of a box held in memory, each with a cursor over
 * its data. Sizes are checked against the parent and the file, so that a truncated or corrupt file
 * fails with the box's name and offset.
 */
public final class IsoBoxes {

    private static final Set<String> FIRST_BOXES =
        Set.of("ftyp", "styp", "moov", "moof", "mdat", "free", "skip", "wide", "pdin", "sidx");

    /** A box: its type, where it is, how long its header is, and its whole size. */
    record Box(String type, long offset, int headerLength, long size) {

        long dataOffset() {
            return offset + headerLength;
        }

        long end() {
            return offset + size;
        }

        /** {@code the moof at byte 1276}. */
        String describe() {
            return "the " + type + " at byte " + offset;
        }
    }

    /** What a visitor of {@link #boxes} is given: one box and a cursor over its data. */
    @FunctionalInterface
    interface BoxVisitor {
        void visit(Box box, FieldCursor data) throws MediaFormatException;
    }

    private IsoBoxes() {
    }

    /** Whether {@code head} starts like an ISO BMFF file: a known first box with a plausible size. */
    public static boolean sniff(ByteBuffer head) {
        if (head.remaining() < 8) {
            return false;
        }
        long boxSize = head.getInt(head.position()) & 0xFFFF_FFFFL;
        return FIRST_BOXES.contains(fourcc(head, head.position() + 4)) && (boxSize <= 1 || boxSize >= 8);
    }

    /** The top-level box whose header is at {@code pos}, checked to end within the file. */
    static Box topBox(MediaFile in, long pos) throws IOException {
        long size = in.size();
        ByteBuffer head = in.peek(pos, 16);
        if (head.remaining() < 8) {
            throw MediaFormatException.truncated("the file ends at byte " + size + " inside the header of the box at"
                + " byte " + pos);
        }
        long boxSize = head.getInt(0) & 0xFFFF_FFFFL;
        String type = fourcc(head, 4);
        int headerLength = 8;
        if (boxSize == 1) {
            if (head.remaining() < 16) {
                throw MediaFormatException.truncated("the file ends at byte " + size + " inside the header of the "
                    + type + " at byte " + pos);
            }
            boxSize = head.getLong(8);
            headerLength = 16;
        } else if (boxSize == 0) {
            boxSize = size - pos;
        }
        if (type.equals("uuid")) {
            headerLength += 16;
        }
        Box box = new Box(type, pos, headerLength, boxSize);
        if (boxSize < headerLength) {
            throw MediaFormatException.corrupt(box.describe() + " claims a size of " + Long.toUnsignedString(boxSize)
                + " bytes, less than its own header");
        }
        if (boxSize > size - pos) {
            throw MediaFormatException.truncated(type, pos, boxSize, size);
        }
        return box;
    }

    /** The data of {@code box} (after its header), read whole: at most {@code limit} bytes. */
    static ByteBuffer read(MediaFile in, Box box, long limit) throws IOException {
        long length = box.size() - box.headerLength();
        if (length > limit) {
            throw MediaFormatException.unsupported(box.describe() + " is " + box.size() + " bytes, more than the "
                + limit + " Rondo reads into memory");
        }
        return in.read(box.dataOffset(), (int) length);
    }

    /**
     * Visits the boxes held in memory in {@code body} (index 0 at file offset {@code base}), each with
     * a cursor over its data. Sizes are checked against the parent.
     */
    static void boxes(ByteBuffer body, long base, String parent, BoxVisitor visitor) throws MediaFormatException {
        int i = 0;
        int limit = body.limit();
        while (i < limit) {
            FieldCursor head = new FieldCursor(body.slice(i, limit - i), base + i, "the box header at byte "
                + (base + i) + " in " + parent);
            long boxSize = head.u32();
            String type = fourcc(head.take(4), 0);
            int headerLength = 8;
            if (boxSize == 1) {
                boxSize = head.u64();
                headerLength = 16;
            } else if (boxSize == 0) {
                boxSize = limit - i;
            }
            if (type.equals("uuid")) {
                headerLength += 16;
            }
            Box box = new Box(type, base + i, headerLength, boxSize);
            if (boxSize < headerLength || boxSize > limit - i) {
                throw MediaFormatException.corrupt(box.describe() + " claims " + boxSize + " bytes, which does not"
                    + " fit " + parent + " (it ends at byte " + (base + limit) + ")");
            }
            visitor.visit(box, new FieldCursor(body.slice(i + headerLength, (int) boxSize - headerLength),
                box.dataOffset(), box.describe()));
            i += (int) boxSize;
        }
    }

    /** Visits the boxes in the rest of a cursor's bytes. */
    static void children(FieldCursor data, String parent, BoxVisitor visitor) throws MediaFormatException {
        long at = data.offset();
        boxes(data.take(data.remaining()), at, parent, visitor);
    }

    /** A box type: four printable characters, else its hex. */
    public static String fourcc(ByteBuffer buf, int index) {
        byte[] b = new byte[4];
        buf.get(index, b);
        for (byte c : b) {
            if (c < 0x20 || c > 0x7E) {
                return String.format(Locale.ROOT, "box 0x%08X", buf.getInt(index));
            }
        }
        return new String(b, StandardCharsets.US_ASCII);
    }
}
