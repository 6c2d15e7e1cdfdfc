package io.rondo.content.media.mpegts;

import io.rondo.content.media.MediaFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an MPEG transport stream (ISO/IEC 13818-1) as recorders, tuners and {@code ffmpeg -f mpegts}
 * write it: 188-byte packets (or 192, a Blu-ray {@code .m2ts}'s 4-byte timestamp before each), the
 * program association table (PID 0) and the first program's map table, and the PES packets of that
 * program's elementary streams, handed whole to a {@link Listener} with their PTS and DTS.
 *
 * <p>What a transport stream leaves to its reader:
 * <ul>
 *   <li>PSI sections (PAT, PMT) may span packets; a section whose CRC-32 is wrong is ignored;
 *   <li>a PES packet starts in a packet with payload_unit_start_indicator set and ends where the
 *       next one starts (video's PES_packet_length is often 0, unbounded); a known length trims it;
 *   <li>each PID's continuity_counter counts its packets with payload: a repeated packet (same
 *       counter) is dropped, a lost one (a gap, a packet marked transport_error) damages the PES
 *       packet being assembled, which is dropped whole, unless the adaptation field says the
 *       discontinuity is meant;
 *   <li>adaptation fields (PCR, stuffing, the random access flag) are skipped;
 *   <li>timestamps count 90 kHz in 33 bits and wrap every 26.5 hours: each is unwrapped against the
 *       one before it, across streams, into a 64-bit count;
 *   <li>where a packet does not start with the sync byte 0x47 (a damaged recording), reading skips
 *       to the next place where three packets in a row do.
 * </ul>
 * Memory is one read buffer and one PES packet per stream being assembled.
 */
final class MpegTsDemuxer {

    /** The sync byte that starts every transport packet. */
    static final int SYNC = 0x47;
    static final int PACKET_BYTES = 188;
    /** A Blu-ray (BDAV) packet: a 4-byte arrival timestamp, then a transport packet. */
    static final int M2TS_PACKET_BYTES = 192;
    /** The largest PES packet Rondo assembles: far more than any real access unit. */
    static final int MAX_PES_BYTES = 32 << 20;
    /** A PES packet without a timestamp. */
    static final long NO_TIME = Long.MIN_VALUE;
    /** Timestamps count 90,000 ticks a second. */
    static final long TIMESCALE = 90_000;

    private static final int READ_BYTES = PACKET_BYTES * M2TS_PACKET_BYTES * 32;
    private static final int PAT_PID = 0;
    private static final int NULL_PID = 0x1FFF;
    static final int MAX_SECTION_BYTES = 1024 + 3;
    private static final long WRAP = 1L << 33;

    /**
     * An elementary stream of the program, as its map table lists it.
     *
     * @param pid         its packets' PID
     * @param streamType  the PMT's stream_type, e.g. 0x1B for H.264
     * @param registration the format_identifier of a registration descriptor ({@code AC-3}, {@code HEVC}), or ""
     * @param descriptors the tags of its other descriptors (0x6A: AC-3, 0x7A: E-AC-3, 0x59: subtitles, ...)
     */
    record Stream(int pid, int streamType, String registration, List<Integer> descriptors) {
    }

    /** What the demuxer finds, in file order. */
    interface Listener {

        /**
         * The first program's map table: its elementary streams. Called once.
         *
         * @return false to stop reading (nothing in it can be kept)
         */
        boolean program(List<Stream> streams) throws IOException;

        /**
         * A whole PES packet of {@code stream}, its payload in {@code data} from position to limit
         * (valid until this returns).
         *
         * @param pts    its presentation time, unwrapped, in 90 kHz ticks; {@link #NO_TIME} if it has none
         * @param dts    its decode time, the PTS where it gives none; {@link #NO_TIME} if it has none
         * @param offset where its first transport packet starts in the file, for messages
         * @return false to stop reading
         */
        boolean pes(Stream stream, long pts, long dts, ByteBuffer data, long offset) throws IOException;
    }

    private final FileChannel in;
    private final long size;
    private final int packetBytes;
    private final int syncOffset;
    private final Listener listener;
    private final Map<Integer, PesPacket> pes = new HashMap<>();
    private final Map<Integer, PsiSection> sections = new HashMap<>();
    private final int[] continuity = new int[NULL_PID + 1];
    private int pmtPid = -1;
    private boolean program;
    private boolean stopped;
    private boolean timed;
    private long lastTimestamp;
    private long skippedBytes;

    private MpegTsDemuxer(FileChannel in, int packetBytes, Listener listener) throws IOException {
        this.in = in;
        this.size = in.size();
        this.packetBytes = packetBytes;
        this.syncOffset = packetBytes - PACKET_BYTES;
        this.listener = listener;
        Arrays.fill(continuity, -1);
    }

    /**
     * The size of the transport packets that {@code head}, a file's first bytes, starts with: 188,
     * or 192 for BDAV ({@code .m2ts}); 0 if it is no transport stream. Every packet that {@code
     * head} holds whole starts with the sync byte, and it holds at least four.
     */
    static int packetBytes(ByteBuffer head) {
        for (int bytes : new int[] {PACKET_BYTES, M2TS_PACKET_BYTES}) {
            int offset = bytes - PACKET_BYTES;
            int packets = (head.remaining() - offset) / bytes;
            boolean synced = packets >= 4;
            for (int i = 0; i < packets && synced; i++) {
                synced = (head.get(head.position() + offset + i * bytes) & 0xFF) == SYNC;
            }
            if (synced) {
                return bytes;
            }
        }
        return 0;
    }

    /**
     * Reads the transport stream {@code in} of {@code packetBytes} packets to its end, or until the
     * listener says stop, telling {@code listener} what it finds.
     *
     * @return how many bytes were skipped to regain sync
     * @throws MediaFormatException if the stream is corrupt beyond what a reader can skip
     */
    static long read(FileChannel in, int packetBytes, Listener listener) throws IOException {
        MpegTsDemuxer demuxer = new MpegTsDemuxer(in, packetBytes, listener);
        demuxer.run();
        return demuxer.skippedBytes;
    }

    private void run() throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(READ_BYTES);
        long pos = 0;
        while (!stopped && pos + packetBytes <= size) {
            buf.clear();
            buf.limit((int) Math.min(buf.capacity(), size - pos));
            while (buf.hasRemaining()) {
                if (in.read(buf, pos + buf.position()) < 0) {
                    throw new IOException("the file ended at byte " + (pos + buf.position()) + " while it was read:"
                        + " did it change meanwhile?");
                }
            }
            buf.flip();
            int at = 0;
            while (!stopped && at + packetBytes <= buf.limit()) {
                if ((buf.get(at + syncOffset) & 0xFF) != SYNC) {
                    int synced = resync(buf, at);
                    if (synced < 0) {
                        break;
                    }
                    skippedBytes += synced - at;
                    markAllDamaged();
                    at = synced;
                    continue;
                }
                packet(buf, at + syncOffset, pos + at);
                at += packetBytes;
            }
            if (at == 0) {
                // no sync anywhere in a whole buffer but its tail: skip what was searched
                long skip = Math.max(1, buf.limit() - 3L * packetBytes);
                skippedBytes += skip;
                pos += skip;
            } else {
                pos += at;
            }
        }
        for (PesPacket p : pes.values()) {
            if (!stopped) {
                deliver(p);
            }
        }
    }

    /** The first position at or after {@code from} + 1 where three packets in a row start with the sync byte. */
    private int resync(ByteBuffer buf, int from) {
        for (int at = from + 1; at + 2 * packetBytes + syncOffset < buf.limit(); at++) {
            if ((buf.get(at + syncOffset) & 0xFF) == SYNC && (buf.get(at + packetBytes + syncOffset) & 0xFF) == SYNC
                && (buf.get(at + 2 * packetBytes + syncOffset) & 0xFF) == SYNC) {
                return at;
            }
        }
        return -1;
    }

    private void markAllDamaged() {
        for (PesPacket p : pes.values()) {
            p.damaged = true;
        }
    }

    private void packet(ByteBuffer buf, int at, long offset) throws IOException {
        int b1 = buf.get(at + 1) & 0xFF;
        boolean error = (b1 & 0x80) != 0;
        boolean start = (b1 & 0x40) != 0;
        int pid = ((b1 & 0x1F) << 8) | (buf.get(at + 2) & 0xFF);
        int b3 = buf.get(at + 3) & 0xFF;
        int control = (b3 >> 4) & 3;
        int counter = b3 & 0x0F;
        if (pid == NULL_PID) {
            return;
        }
        PesPacket stream = pes.get(pid);
        if (error) {
            if (stream != null) {
                stream.damaged = true;
            }
            return;
        }
        int payload = at + 4;
        boolean discontinuity = false;
        if ((control & 2) != 0) {
            int length = buf.get(payload) & 0xFF;
            discontinuity = length > 0 && (buf.get(payload + 1) & 0x80) != 0;
            payload += 1 + length;
        }
        if ((control & 1) == 0 || payload >= at + PACKET_BYTES) {
            return;
        }
        int last = continuity[pid];
        continuity[pid] = counter;
        if (last >= 0 && !discontinuity) {
            if (counter == last) {
                return;
            }
            if (counter != ((last + 1) & 0x0F)) {
                if (stream != null) {
                    stream.damaged = true;
                }
                PsiSection section = sections.get(pid);
                if (section != null) {
                    section.length = 0;
                }
            }
        }
        ByteBuffer data = buf.slice(payload, at + PACKET_BYTES - payload);
        if (pid == PAT_PID || pid == pmtPid) {
            section(pid, start, data);
        } else if (stream != null) {
            if (start) {
                deliver(stream);
                stream.startOffset = offset;
                stream.damaged = false;
                stream.started = true;
            }
            if (stream.started) {
                stream.append(data, offset);
            }
        }
    }

    /** Assembles the PSI section of PID {@code pid}; one whole, parses it. */
    private void section(int pid, boolean start, ByteBuffer data) throws IOException {
        PsiSection s = sections.computeIfAbsent(pid, p -> new PsiSection());
        if (start) {
            int pointer = data.get(0) & 0xFF;
            if (s.length > 0 && pointer > 0 && 1 + pointer <= data.remaining()) {
                s.append(data.slice(1, pointer));
                complete(pid, s);
            }
            s.length = 0;
            if (1 + pointer >= data.remaining()) {
                return;
            }
            s.append(data.slice(1 + pointer, data.remaining() - 1 - pointer));
            s.started = true;
        } else if (s.started && s.length > 0) {
            s.append(data);
        }
        complete(pid, s);
    }

    private void complete(int pid, PsiSection s) throws IOException {
        if (s.length < 3) {
            return;
        }
        int sectionLength = ((s.bytes[1] & 0x0F) << 8) | (s.bytes[2] & 0xFF);
        if (s.length < 3 + sectionLength) {
            return;
        }
        s.started = false;
        int table = s.bytes[0] & 0xFF;
        int end = 3 + sectionLength;
        s.length = 0;
        if (sectionLength < 9 || crc32(s.bytes, end) != 0) {
            return;
        }
        if (pid == PAT_PID && table == 0 && pmtPid < 0) {
            for (int i = 8; i + 4 <= end - 4; i += 4) {
                int number = ((s.bytes[i] & 0xFF) << 8) | (s.bytes[i + 1] & 0xFF);
                if (number != 0) {
                    pmtPid = ((s.bytes[i + 2] & 0x1F) << 8) | (s.bytes[i + 3] & 0xFF);
                    break;
                }
            }
        } else if (pid == pmtPid && table == 2 && !program) {
            program = true;
            programMap(s.bytes, end);
        }
    }

    private void programMap(byte[] b, int end) throws IOException {
        int infoLength = ((b[10] & 0x0F) << 8) | (b[11] & 0xFF);
        int i = 12 + infoLength;
        List<Stream> streams = new ArrayList<>();
        while (i + 5 <= end - 4) {
            int type = b[i] & 0xFF;
            int pid = ((b[i + 1] & 0x1F) << 8) | (b[i + 2] & 0xFF);
            int esInfo = ((b[i + 3] & 0x0F) << 8) | (b[i + 4] & 0xFF);
            int d = i + 5;
            int descriptorsEnd = Math.min(d + esInfo, end - 4);
            String registration = "";
            List<Integer> tags = new ArrayList<>();
            while (d + 2 <= descriptorsEnd) {
                int tag = b[d] & 0xFF;
                int length = b[d + 1] & 0xFF;
                if (tag == 0x05 && length >= 4 && d + 6 <= descriptorsEnd) {
                    registration = new String(b, d + 2, 4, StandardCharsets.ISO_8859_1);
                } else {
                    tags.add(tag);
                }
                d += 2 + length;
            }
            i += 5 + esInfo;
            if (pid == PAT_PID || pid == pmtPid || pid == NULL_PID || pes.containsKey(pid)) {
                continue;
            }
            Stream stream = new Stream(pid, type, registration, List.copyOf(tags));
            streams.add(stream);
            pes.put(pid, new PesPacket(stream));
        }
        if (!listener.program(List.copyOf(streams))) {
            stopped = true;
        }
    }

    /** Hands the PES packet assembled for {@code p}, if whole and sound, to the listener. */
    private void deliver(PesPacket p) throws IOException {
        int n = p.length;
        boolean sound = p.started && !p.damaged && n >= 9;
        p.length = 0;
        p.started = false;
        if (!sound) {
            return;
        }
        byte[] b = p.bytes;
        if (b[0] != 0 || b[1] != 0 || b[2] != 1) {
            return;
        }
        int declared = ((b[4] & 0xFF) << 8) | (b[5] & 0xFF);
        int end = declared == 0 ? n : Math.min(n, 6 + declared);
        int flags = b[7] & 0xFF;
        int headerEnd = 9 + (b[8] & 0xFF);
        if ((b[6] & 0xC0) != 0x80 || headerEnd > end) {
            return;
        }
        long pts = NO_TIME;
        long dts = NO_TIME;
        if ((flags & 0x80) != 0 && headerEnd >= 14) {
            pts = unwrap(timestamp(b, 9));
            dts = pts;
            if ((flags & 0x40) != 0 && headerEnd >= 19) {
                dts = unwrap(timestamp(b, 14));
            }
        }
        if (!listener.pes(p.stream, pts, dts, ByteBuffer.wrap(b, headerEnd, end - headerEnd), p.startOffset)) {
            stopped = true;
        }
    }

    /** The 33-bit timestamp of 5 bytes at {@code at}: 3 bits, a marker, 15 bits, a marker, 15 bits, a marker. */
    private static long timestamp(byte[] b, int at) {
        return ((long) (b[at] & 0x0E) << 29) | ((b[at + 1] & 0xFFL) << 22) | ((b[at + 2] & 0xFEL) << 14)
            | ((b[at + 3] & 0xFFL) << 7) | ((b[at + 4] & 0xFFL) >> 1);
    }

    /** A 33-bit timestamp as the 64-bit count nearest the last one seen, so that a wrap counts on. */
    private long unwrap(long raw) {
        if (!timed) {
            timed = true;
            lastTimestamp = raw;
            return raw;
        }
        long delta = (raw - lastTimestamp) & (WRAP - 1);
        if (delta >= WRAP / 2) {
            delta -= WRAP;
        }
        lastTimestamp += delta;
        return lastTimestamp;
    }

    /** The MPEG-2 CRC-32 (polynomial 0x04C11DB7, no reflection) of {@code b[0, end)}: 0 over a section and its CRC. */
    private static int crc32(byte[] b, int end) {
        int crc = -1;
        for (int i = 0; i < end; i++) {
            crc ^= (b[i] & 0xFF) << 24;
            for (int k = 0; k < 8; k++) {
                crc = crc < 0 ? (crc << 1) ^ 0x04C11DB7 : crc << 1;
            }
        }
        return crc;
    }
}
