package io.rondo.content.media.isobmff;

import java.nio.ByteBuffer;

/**
 * QuickTime's sound sample descriptions (QuickTime File Format, "Sound Sample Descriptions") made
 * into the ISO audio sample entry (ISO/IEC 14496-12 12.2.3) that a browser's MP4 parser reads.
 * A {@code .mov} from ffmpeg ({@code -f mov}), a camera or a phone describes AAC with a version 1
 * entry (16 more bytes of packet sizes), or version 2 (the rate as a float, for rates past 65535
 * Hz), and keeps its {@code esds} inside a {@code wave} atom beside {@code frma} and a terminator.
 * Chromium's parser looks for {@code esds} as a child of the entry and knows version 0 only.
 *
 * <p>The ISO entry keeps the data reference index, the channel count and the sample rate (0 where
 * it does not fit 16.16 bits: the decoder takes it from the AudioSpecificConfig) and the esds, byte
 * for byte; the packet sizes of version 1 and QuickTime's other atoms ({@code chan}, ...) go.
 */
final class QuickTimeAudio {

    private static final int FIELDS_END = 36;
    private static final int VERSION_1_EXTRA = 16;
    private static final int VERSION_2_EXTRA = 36;

    private QuickTimeAudio() {
    }

    /**
     * {@code entry} as an ISO {@code mp4a} entry with its esds as a child: unchanged where it is one
     * already, or where no esds is found (the codec check then says so).
     */
    static byte[] isoEntry(byte[] entry) {
        ByteBuffer e = ByteBuffer.wrap(entry);
        if (entry.length < FIELDS_END || !IsoBoxes.fourcc(e, 4).equals("mp4a")) {
            return entry;
        }
        int version = e.getShort(16) & 0xFFFF;
        int childrenAt = FIELDS_END + (version == 1 ? VERSION_1_EXTRA : version == 2 ? VERSION_2_EXTRA : 0);
        if (version > 2 || childrenAt > entry.length) {
            return entry;
        }
        int direct = child(e, childrenAt, entry.length, "esds");
        if (version == 0 && direct >= 0) {
            return entry;
        }
        int esds = direct;
        if (esds < 0) {
            int wave = child(e, childrenAt, entry.length, "wave");
            if (wave >= 0) {
                esds = child(e, wave + 8, wave + e.getInt(wave), "esds");
            }
        }
        if (esds < 0) {
            return entry;
        }
        long channels = e.getShort(24) & 0xFFFF;
        long rate = (e.getInt(32) & 0xFFFF_FFFFL) >>> 16;
        if (version == 2 && entry.length >= 52) {
            rate = Math.round(e.getDouble(40));
            channels = e.getInt(48) & 0xFFFF_FFFFL;
        }
        int esdsSize = e.getInt(esds);
        BoxBuffer b = new BoxBuffer(FIELDS_END + esdsSize);
        int mp4a = b.begin("mp4a");
        b.zeros(6);
        b.u16(e.getShort(14) & 0xFFFF);
        b.zeros(8);
        b.u16((int) Math.min(channels, 0xFFFF));
        b.u16(16);
        b.zeros(4);
        b.u32(rate <= 0xFFFF ? rate << 16 : 0);
        byte[] box = new byte[esdsSize];
        e.get(esds, box);
        b.bytes(box);
        b.end(mp4a);
        return b.toArray();
    }

    /** Where the first child box of {@code type} in {@code [from, to)} starts, or -1. */
    private static int child(ByteBuffer e, int from, int to, String type) {
        int at = from;
        while (at + 8 <= to) {
            long size = e.getInt(at) & 0xFFFF_FFFFL;
            if (size < 8 || at + size > to) {
                return -1;
            }
            if (IsoBoxes.fourcc(e, at + 4).equals(type)) {
                return at;
            }
            at += (int) size;
        }
        return -1;
    }
}
