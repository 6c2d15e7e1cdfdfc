package io.rondo.content.media.ogg;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Reads the packets of one logical bitstream of an Ogg file (RFC 3533), page by page: a page is
 * {@code OggS}, its header (flags, granule position, serial number, sequence number, CRC-32) and a
 * lacing table whose values of 255 continue a packet into the next segment, and past the page's
 * end into the next page of the same stream. Each page's CRC is checked; a page of another
 * logical stream is skipped.
 *
 * <p>Besides each packet, the reader tells where it began: the page its first byte is on, and how
 * many packets began on that page before it, so that a remuxer can walk to it again later from that
 * page, without holding the packets meanwhile.
 */
final class OggDemuxer {

    /** Ogg's capture pattern, {@code OggS}, as a big-endian int. */
    static final int CAPTURE = 0x4F676753;
    /** The most bytes one packet may take here: far more than any audio packet. */
    static final int MAX_PACKET_BYTES = 16 << 20;

    private static final int HEADER_BYTES = 27;
    private static final int CONTINUED = 0x01;
    private static final int END = 0x04;
    private static final int[] CRC = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i << 24;
            for (int k = 0; k < 8; k++) {
                c = c < 0 ? (c << 1) ^ 0x04C11DB7 : c << 1;
            }
            CRC[i] = c;
        }
    }

    private final MediaFile in;
    private final long end;
    private long nextPage;
    private int serial;
    private boolean serialKnown;
    private boolean ended;
    private ByteBuffer page = ByteBuffer.allocate(0);
    private long pageOffset;
    private int segments;
    private int segment;
    private int bodyAt;
    private int beganOnPage;
    private boolean skipping;
    private byte[] packet = new byte[1 << 12];
    private int length;
    private boolean partial;
    private long packetPage;
    private int packetIndex;
    private long granule;
    private boolean otherStreams;

    /**
     * A reader of {@code in} from the page at {@code from}: of the stream with the serial number of
     * the first page it reads, or of {@code serial} if not negative.
     */
    OggDemuxer(MediaFile in, long from, long serial) {
        this.in = in;
        this.end = in.size();
        this.nextPage = from;
        this.serial = (int) serial;
        this.serialKnown = serial >= 0;
    }

    /** Whether {@code head} starts with an Ogg page. */
    static boolean sniff(ByteBuffer head) {
        return head.remaining() >= HEADER_BYTES && head.getInt(head.position()) == CAPTURE
            && head.get(head.position() + 4) == 0;
    }

    /**
     * Reads the next packet of the stream, at its end (the last page whose end-of-stream flag is
     * set ends it).
     *
     * @return false at the end of the stream or the file
     * @throws MediaFormatException if a page is damaged, or the file ends inside one
     */
    boolean next() throws IOException {
        while (true) {
            if (segment == segments && !nextPage()) {
                return false;
            }
            int lacing = page.get(HEADER_BYTES + segment) & 0xFF;
            segment++;
            if (!partial && !skipping) {
                partial = true;
                length = 0;
                packetPage = pageOffset;
                packetIndex = beganOnPage++;
            }
            if (!skipping) {
                if (length + lacing > MAX_PACKET_BYTES) {
                    throw MediaFormatException.unsupported("the Ogg packet that begins on the page at byte "
                        + packetPage + " is longer than the " + MAX_PACKET_BYTES + " bytes Rondo takes");
                }
                if (length + lacing > packet.length) {
                    packet = Arrays.copyOf(packet, Math.max(packet.length * 2, length + lacing));
                }
                page.get(bodyAt, packet, length, lacing);
                length += lacing;
            }
            bodyAt += lacing;
            if (lacing < 255) {
                if (skipping) {
                    skipping = false;
                    continue;
                }
                partial = false;
                return true;
            }
        }
    }

    /** The packet read last: its bytes from 0 to {@link #length()}, valid until the next {@link #next}. */
    byte[] data() {
        return packet;
    }

    int length() {
        return length;
    }

    /** Where the page that the packet read last began on starts. */
    long packetPage() {
        return packetPage;
    }

    /** How many packets of the stream began on that page before it. */
    int packetIndex() {
        return packetIndex;
    }

    /** The granule position of the page read last: the stream's position at the end of its last whole packet. */
    long granule() {
        return granule;
    }

    /** The serial number of the stream read. */
    int serial() {
        return serial;
    }

    /** Whether pages of another logical stream were seen (a multiplexed file: Theora with Vorbis, a skeleton). */
    boolean otherStreams() {
        return otherStreams;
    }

    /** Loads the next page of the stream; false at the end. */
    private boolean nextPage() throws IOException {
        while (!ended && nextPage < end) {
            long at = nextPage;
            ByteBuffer header = in.peek(at, HEADER_BYTES);
            if (header.remaining() < HEADER_BYTES) {
                throw MediaFormatException.truncated("the file ends at byte " + end + ", inside the Ogg page header"
                    + " at byte " + at);
            }
            if (header.getInt(0) != CAPTURE || header.get(4) != 0) {
                throw MediaFormatException.corrupt("no Ogg page starts at byte " + at + ", where the page before it"
                    + " ends");
            }
            int flags = header.get(5);
            header.order(ByteOrder.LITTLE_ENDIAN);
            long pageGranule = header.getLong(6);
            int pageSerial = header.getInt(14);
            int count = header.get(26) & 0xFF;
            ByteBuffer table = in.peek(at + HEADER_BYTES, count);
            if (table.remaining() < count) {
                throw MediaFormatException.truncated("Ogg page", at, HEADER_BYTES + count, end);
            }
            int body = 0;
            for (int i = 0; i < count; i++) {
                body += table.get(i) & 0xFF;
            }
            int size = HEADER_BYTES + count + body;
            if (at + size > end) {
                throw MediaFormatException.truncated("Ogg page", at, size, end);
            }
            nextPage = at + size;
            if (!serialKnown) {
                serial = pageSerial;
                serialKnown = true;
            }
            if (pageSerial != serial) {
                otherStreams = true;
                continue;
            }
            page = in.read(at, size);
            if (crc(page) != Integer.reverseBytes(page.getInt(22))) {
                throw MediaFormatException.corrupt("the Ogg page at byte " + at + " fails its CRC check");
            }
            pageOffset = at;
            segments = count;
            segment = 0;
            bodyAt = HEADER_BYTES + count;
            beganOnPage = 0;
            granule = pageGranule;
            boolean continued = (flags & CONTINUED) != 0;
            if (partial && !continued) {
                throw MediaFormatException.corrupt("the Ogg page at byte " + at + " does not continue the packet that"
                    + " began on the page at byte " + packetPage);
            }
            skipping = continued && !partial;
            ended = (flags & END) != 0;
            return true;
        }
        return false;
    }

    /** The page's CRC-32 (polynomial 0x04C11DB7, no reflection), its own CRC field taken as 0. */
    private static int crc(ByteBuffer page) {
        int c = 0;
        for (int i = 0; i < page.limit(); i++) {
            int b = i >= 22 && i < 26 ? 0 : page.get(i) & 0xFF;
            c = (c << 8) ^ CRC[((c >>> 24) ^ b) & 0xFF];
        }
        return c;
    }
}
