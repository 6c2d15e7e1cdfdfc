package io.rondo.content.media.flac;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.isobmff.FragmentedMp4Writer;
import io.rondo.content.media.isobmff.SampleEntryBoxes;
import io.rondo.content.media.isobmff.SampleTrack;
import io.rondo.content.media.isobmff.TrackHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A FLAC file (RFC 9639) remuxed at ingest into the fragmented MP4 that browsers play FLAC from
 * (Encapsulation of FLAC in ISOBMFF): a {@code fLaC} sample entry whose {@code dfLa} holds the
 * STREAMINFO block, and each FLAC frame, untouched, one sample, so that {@link FragmentedMp4Writer}
 * stores one moof + mdat per round T.
 *
 * <p>A FLAC frame does not say how long it is: it ends where the next frame's header starts. A
 * frame boundary is taken where a frame header (the sync code of the stream's blocking strategy,
 * valid fields of the stream's rate, depth and channel count, a correct CRC-8) follows bytes whose
 * CRC-16 is the one the frame ends with; the last frame ends at the end of the file, where its
 * CRC-16 must hold too. Each frame's block size (its header's) gives its duration; times count the
 * sample rate. ID3v2 tags before {@code fLaC}, and other metadata blocks (tags, cover art, seek
 * table, padding), are not kept.
 */
public final class FlacRemuxer {

    private static final int ID3V2_HEADER_BYTES = 10;
    private static final int STREAMINFO_BYTES = 34;
    private static final int METADATA_HEADER_BYTES = 4;
    private static final int LAST_BLOCK = 0x80;
    private static final int READ_BYTES = 1 << 20;
    private static final int MAX_HEADER_BYTES = 16;
    /** Sample rates by the 4-bit code of a frame header (0: the STREAMINFO's; 12 to 14: given after the header). */
    private static final int[] RATES = {0, 88_200, 176_400, 192_000, 8_000, 16_000, 22_050, 24_000, 32_000, 44_100,
        48_000, 96_000};
    /** Bits per sample by the 3-bit code of a frame header (0: the STREAMINFO's; 3: reserved). */
    private static final int[] DEPTHS = {0, 8, 12, -1, 16, 20, 24, 32};
    private static final int[] CRC16 = new int[256];
    private static final int[] CRC8 = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c16 = i << 8;
            int c8 = i;
            for (int k = 0; k < 8; k++) {
                c16 = (c16 & 0x8000) != 0 ? (c16 << 1) ^ 0x8005 : c16 << 1;
                c8 = (c8 & 0x80) != 0 ? (c8 << 1) ^ 0x07 : c8 << 1;
            }
            CRC16[i] = c16 & 0xFFFF;
            CRC8[i] = c8 & 0xFF;
        }
    }

    private FlacRemuxer() {
    }

    /** Where {@code fLaC} starts in {@code file}, whose first bytes are {@code head}: 0, past ID3v2 tags, or -1. */
    public static long streamStart(ByteBuffer head, Path file) throws IOException {
        if (isFlac(head, 0)) {
            return 0;
        }
        if (head.remaining() < ID3V2_HEADER_BYTES || head.get(0) != 'I' || head.get(1) != 'D' || head.get(2) != '3') {
            return -1;
        }
        long size = 0;
        for (int i = 6; i < ID3V2_HEADER_BYTES; i++) {
            if ((head.get(i) & 0x80) != 0) {
                return -1;
            }
            size = (size << 7) | head.get(i);
        }
        long start = ID3V2_HEADER_BYTES + size + ((head.get(5) & 0x10) != 0 ? ID3V2_HEADER_BYTES : 0);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer magic = ByteBuffer.allocate(4);
            while (magic.hasRemaining() && in.read(magic, start + magic.position()) > 0) {
                continue;
            }
            return isFlac(magic.flip(), 0) ? start : -1;
        }
    }

    private static boolean isFlac(ByteBuffer b, int at) {
        return b.remaining() >= at + 4 && b.get(at) == 'f' && b.get(at + 1) == 'L' && b.get(at + 2) == 'a'
            && b.get(at + 3) == 'C';
    }

    /**
     * What ingest makes of the FLAC stream at {@code start} of {@code file}: a fragmented MP4 of
     * one fragment per round.
     *
     * @throws MediaFormatException if it is truncated or corrupt
     */
    public static Preparation prepare(Path file, long start, long roundNs) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        SampleTrack track;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            track = frames(in, start);
        }
        return new Preparation.Continuous(FragmentedMp4Writer.plan(file, List.of(track), List.of("isom", "iso2"),
            roundNs));
    }

    /** Reads the metadata blocks and finds every frame. */
    private static SampleTrack frames(FileChannel in, long start) throws IOException {
        long size = in.size();
        long pos = start + 4;
        byte[] streamInfo = null;
        boolean last = false;
        while (!last) {
            ByteBuffer header = read(in, pos, METADATA_HEADER_BYTES);
            int type = header.get(0) & 0x7F;
            last = (header.get(0) & LAST_BLOCK) != 0;
            int length = ((header.get(1) & 0xFF) << 16) | ((header.get(2) & 0xFF) << 8) | (header.get(3) & 0xFF);
            if (pos + METADATA_HEADER_BYTES + length > size) {
                throw MediaFormatException.truncated("FLAC metadata block", pos, METADATA_HEADER_BYTES + length, size);
            }
            if (streamInfo == null) {
                if (type != 0 || length != STREAMINFO_BYTES) {
                    throw MediaFormatException.corrupt("the FLAC stream's first metadata block, at byte " + pos
                        + ", is of type " + type + " and " + length + " bytes, not a STREAMINFO of 34");
                }
                streamInfo = new byte[STREAMINFO_BYTES];
                read(in, pos + METADATA_HEADER_BYTES, STREAMINFO_BYTES).get(streamInfo);
            }
            pos += METADATA_HEADER_BYTES + length;
        }
        ByteBuffer info = ByteBuffer.wrap(streamInfo);
        long packed = info.getLong(10);
        int rate = (int) (packed >>> 44);
        int channels = (int) ((packed >>> 41) & 7) + 1;
        int depth = (int) ((packed >>> 36) & 0x1F) + 1;
        if (rate == 0) {
            throw MediaFormatException.corrupt("the FLAC STREAMINFO gives a sample rate of 0");
        }
        byte[] blocks = new byte[METADATA_HEADER_BYTES + STREAMINFO_BYTES];
        blocks[0] = (byte) LAST_BLOCK;
        blocks[3] = STREAMINFO_BYTES;
        System.arraycopy(streamInfo, 0, blocks, METADATA_HEADER_BYTES, STREAMINFO_BYTES);
        TrackHeader header = new TrackHeader(1, TrackHeader.AUDIO, rate,
            SampleEntryBoxes.flac(channels, depth, rate, blocks), -1, TrackHeader.UNDETERMINED, 3, 0, 0x0100,
            TrackHeader.IDENTITY, 0, 0, 0, -1);
        return new FrameScan(in, size, rate, channels, depth, header).scan(pos);
    }

    /** The walk over the frames, CRC-16 by CRC-16: see the class comment. */
    private static final class FrameScan {
        private final FileChannel in;
        private final long size;
        private final int rate;
        private final int channels;
        private final int depth;
        private final SampleTrack track;
        /** The second byte of the first frame header (its blocking strategy), which every frame repeats; 0 before. */
        private int sync;

        FrameScan(FileChannel in, long size, int rate, int channels, int depth, TrackHeader header) {
            this.in = in;
            this.size = size;
            this.rate = rate;
            this.channels = channels;
            this.depth = depth;
            this.track = new SampleTrack(header);
        }

        SampleTrack scan(long first) throws IOException {
            if (first >= size) {
                throw MediaFormatException.corrupt("the FLAC file holds no frame after its metadata, at byte " + first);
            }
            long frameStart = first;
            int frameSamples = blockSize(first);
            if (frameSamples < 0) {
                throw MediaFormatException.corrupt("no FLAC frame header at byte " + first + ", after the metadata");
            }
            long time = 0;
            int crc = 0;
            ByteBuffer buf = ByteBuffer.allocate(READ_BYTES);
            long bufStart = first;
            while (bufStart < size) {
                buf.clear().limit((int) Math.min(READ_BYTES, size - bufStart));
                while (buf.hasRemaining()) {
                    if (in.read(buf, bufStart + buf.position()) < 0) {
                        throw new IOException("the file ended at byte " + (bufStart + buf.position())
                            + " while it was read: did it change meanwhile?");
                    }
                }
                byte[] b = buf.array();
                int n = buf.position();
                for (int i = 0; i < n; i++) {
                    long p = bufStart + i;
                    if (crc == 0 && b[i] == (byte) 0xFF && p >= frameStart + 9) {
                        int next = blockSize(p);
                        if (next > 0) {
                            add(frameStart, p, time, frameSamples);
                            time += frameSamples;
                            frameStart = p;
                            frameSamples = next;
                        }
                    }
                    crc = ((crc << 8) ^ CRC16[((crc >>> 8) ^ b[i]) & 0xFF]) & 0xFFFF;
                }
                bufStart += n;
            }
            if (crc != 0) {
                throw MediaFormatException.truncated("the FLAC frame at byte " + frameStart + " does not end with its"
                    + " CRC-16 where the file ends, at byte " + size + ": it is cut short or damaged");
            }
            add(frameStart, size, time, frameSamples);
            return track;
        }

        private void add(long from, long to, long time, int samples) throws MediaFormatException {
            if (to - from > Integer.MAX_VALUE) {
                throw MediaFormatException.corrupt("the FLAC frame at byte " + from + " is " + (to - from) + " bytes");
            }
            track.add(from, (int) (to - from), time, samples, 0, true);
        }

        /** The block size of the frame header at {@code pos}, or -1 if there is none of this stream there. */
        private int blockSize(long pos) throws IOException {
            ByteBuffer h = read(in, pos, (int) Math.min(MAX_HEADER_BYTES, size - pos));
            int n = h.remaining();
            if (n < 6 || (h.get(0) & 0xFF) != 0xFF || (h.get(1) & 0xFE) != 0xF8 || sync != 0 && h.get(1) != sync) {
                return -1;
            }
            int blockCode = (h.get(2) & 0xF0) >>> 4;
            int rateCode = h.get(2) & 0x0F;
            int assignment = (h.get(3) & 0xF0) >>> 4;
            int depthCode = (h.get(3) & 0x0E) >>> 1;
            if (blockCode == 0 || rateCode == 15 || assignment > 10 || DEPTHS[depthCode] < 0
                || (h.get(3) & 1) != 0) {
                return -1;
            }
            if (rateCode != 0 && rateCode < 12 && RATES[rateCode] != rate
                || depthCode != 0 && DEPTHS[depthCode] != depth || (assignment < 8 ? assignment + 1 : 2) != channels) {
                return -1;
            }
            int at = 4;
            int first = h.get(at) & 0xFF;
            int extra = first < 0x80 ? 0 : first >= 0xC0 && first <= 0xFE
                ? Integer.numberOfLeadingZeros(~first << 24) - 1 : -1;
            if (extra < 0 || at + extra >= n) {
                return -1;
            }
            for (int i = 1; i <= extra; i++) {
                if ((h.get(at + i) & 0xC0) != 0x80) {
                    return -1;
                }
            }
            at += 1 + extra;
            int samples = switch (blockCode) {
                case 1 -> 192;
                case 2, 3, 4, 5 -> 576 << (blockCode - 2);
                case 6 -> at < n ? (h.get(at) & 0xFF) + 1 : -1;
                case 7 -> at + 1 < n ? (h.getShort(at) & 0xFFFF) + 1 : -1;
                default -> 256 << (blockCode - 8);
            };
            at += blockCode == 6 ? 1 : blockCode == 7 ? 2 : 0;
            at += rateCode == 12 ? 1 : rateCode == 13 || rateCode == 14 ? 2 : 0;
            if (samples < 0 || at >= n) {
                return -1;
            }
            int crc = 0;
            for (int i = 0; i < at; i++) {
                crc = CRC8[(crc ^ h.get(i)) & 0xFF];
            }
            if (crc != (h.get(at) & 0xFF)) {
                return -1;
            }
            sync = h.get(1);
            return samples;
        }
    }

    private static ByteBuffer read(FileChannel in, long pos, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (in.read(b, pos + b.position()) < 0) {
                throw MediaFormatException.truncated("the file ends at byte " + (pos + b.position()) + ", inside the"
                    + " FLAC header at byte " + pos);
            }
        }
        return b.flip();
    }
}
