package io.rondo.content.media.ogg;

import io.rondo.content.media.FfmpegCommands;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.Ticks;
import io.rondo.content.media.matroska.Ebml;
import io.rondo.content.media.matroska.EbmlWriter;
import io.rondo.content.media.matroska.WebmSegment;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Ogg Vorbis and Ogg Opus ({@code .ogg}, {@code .oga}, {@code .opus}) remuxed at ingest into the
 * WebM that browsers play them from: one Cluster per round T (papers/001 Section 1.1), each audio
 * packet, untouched, one SimpleBlock.
 *
 * <p>The stored copy is an EBML header of DocType {@code webm}; a Segment of unknown size; Info
 * (TimecodeScale 1 ms, the Duration); one audio TrackEntry: {@code A_VORBIS} whose CodecPrivate is
 * the identification, comment and setup headers Xiph-laced (the comment header rewritten to the
 * vendor string alone, so that tags and embedded cover art do not travel with every stream's init
 * segment), or {@code A_OPUS} with the OpusHead, its pre-skip as CodecDelay and 80 ms of
 * SeekPreRoll (RFC 7845, the Matroska codec mappings); then for each round a Cluster whose
 * Timecode is the round's start and whose blocks are the packets that start in it.
 *
 * <p>Ogg times a packet only by the granule position of the page it ends on, so each packet's
 * duration is read from the packet itself: Vorbis's from its mode's block size and the previous
 * one's (Vorbis I 4.3.8; the modes' block flags read from the end of the setup header, since the
 * codebooks before them need a decoder to skip), Opus's from its TOC byte (RFC 6716 3.1). Packets
 * are timed from 0 on (Vorbis's first packet, which only primes the decoder, shares 0 with the
 * second); the media lasts until the last one ends, or until the last page's granule position
 * where that cuts the last packet short.
 *
 * <p>An Ogg file of another codec (Theora, FLAC, Speex) or of several multiplexed streams is
 * discrete, with a note naming it and the ffmpeg command that makes it streamable.
 */
public final class OggWebmRemuxer implements StoredMedia {

    private static final long NS_PER_MS = 1_000_000L;
    private static final long OPUS_RATE = 48_000;
    private static final long OPUS_SEEK_PRE_ROLL_NS = 80_000_000L;
    private static final int TRACK_UID = 0x73C5;
    private static final int SEEK_PRE_ROLL = 0x56BB;
    private static final int AUDIO_TRACK = 2;
    private static final int BLOCK_HEADER_BYTES = 4;

    private final MediaFile in;
    private final int serial;
    private final byte[] init;
    private final MediaIndex index;
    private final Rounds rounds;
    private ByteBuffer cluster = ByteBuffer.allocate(0);

    private OggWebmRemuxer(MediaFile in, int serial, byte[] init, MediaIndex index, Rounds rounds) {
        this.in = in;
        this.serial = serial;
        this.init = init;
        this.index = index;
        this.rounds = rounds;
    }

    /** Whether {@code head}, a file's first bytes, is Ogg. */
    public static boolean sniff(ByteBuffer head) {
        return OggDemuxer.sniff(head);
    }

    /**
     * What ingest makes of the Ogg file {@code file}: WebM of one Cluster per round for Vorbis or
     * Opus, a discrete object with a note for anything else.
     *
     * @throws MediaFormatException if the file is truncated or corrupt
     */
    public static Preparation prepare(Path file, long roundNs) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        if (roundNs / NS_PER_MS > Short.MAX_VALUE) {
            throw new IllegalArgumentException("rounds longer than " + Short.MAX_VALUE + " ms do not fit a WebM"
                + " block's timecode, was " + roundNs + " ns");
        }
        MediaFile in = MediaFile.open(file);
        try {
            OggDemuxer packets = new OggDemuxer(in, 0, -1);
            if (!packets.next()) {
                throw MediaFormatException.corrupt("the Ogg file holds no packet");
            }
            byte[] first = Arrays.copyOf(packets.data(), packets.length());
            Codec codec = Codec.of(first);
            if (codec == null) {
                in.close();
                return new Preparation.Discrete(otherCodec(first, file));
            }
            OggWebmRemuxer remuxer = plan(in, packets, codec.vorbis ? new Vorbis(first) : new Opus(first), roundNs);
            if (remuxer == null) {
                in.close();
                return new Preparation.Discrete("the Ogg file multiplexes other streams (video?) with its "
                    + (codec.vorbis ? "Vorbis" : "Opus") + " audio; to stream it: "
                    + FfmpegCommands.convert(file, "-c:v libvpx-vp9 -c:a copy", "webm"));
            }
            return new Preparation.Continuous(remuxer);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** The codec of a first packet: Vorbis, Opus, or null. */
    private record Codec(boolean vorbis) {
        static Codec of(byte[] first) {
            if (startsWith(first, 1, "\u0001vorbis") && first.length >= 30) {
                return new Codec(true);
            }
            if (startsWith(first, 0, "OpusHead") && first.length >= 19) {
                return new Codec(false);
            }
            return null;
        }
    }

    /** The note for an Ogg stream that is neither Vorbis nor Opus. */
    private static String otherCodec(byte[] first, Path file) {
        if (startsWith(first, 1, "\u0080theora")) {
            return "the Ogg file holds Theora video, which browsers do not play; to stream it: "
                + FfmpegCommands.convert(file, "-c:v libvpx-vp9 -c:a libopus", "webm");
        }
        if (startsWith(first, 1, "\u007FFLAC")) {
            return "the Ogg file holds FLAC, which Rondo streams from a .flac file; to stream it: "
                + FfmpegCommands.convert(file, "-c:a copy", "flac");
        }
        String codec = startsWith(first, 0, "Speex   ") ? "Speex" : startsWith(first, 0, "fishead") ? "a skeleton"
            : "a codec Rondo does not know";
        return "the Ogg file holds " + codec + " first, where Rondo streams Vorbis or Opus; to stream it: "
            + FfmpegCommands.convert(file, "-vn -c:a libopus", "webm");
    }

    private static boolean startsWith(byte[] b, int length, String prefix) {
        byte[] p = prefix.getBytes(StandardCharsets.ISO_8859_1);
        return b.length >= p.length && Arrays.equals(b, 0, p.length, p, 0, p.length);
    }

    /** A codec's headers and the duration of each of its packets, in samples. */
    private interface Audio {
        /** How many header packets the stream starts with, the first included. */
        int headers();

        /** Whether the first audio packet only primes the decoder, which plays it from the second on (Vorbis). */
        boolean firstPacketPlaysNothing();

        /** The most samples one packet holds. */
        long longestPacket();

        /** Takes header packet {@code n} (1 the second); returns whether it was one. */
        boolean header(int n, byte[] packet, int length) throws MediaFormatException;

        long durationSamples(byte[] packet, int length) throws MediaFormatException;

        long rate();

        int channels();

        byte[] trackEntry();

        String codecs();
    }

    private static OggWebmRemuxer plan(MediaFile in, OggDemuxer packets, Audio audio, long roundNs)
        throws IOException {
        int headers = 1;
        boolean more = packets.next();
        while (more && audio.header(headers, packets.data(), packets.length())) {
            headers++;
            more = packets.next();
        }
        if (headers < audio.headers()) {
            throw MediaFormatException.corrupt("the Ogg stream ends after " + headers + " of its " + audio.headers()
                + " header packets");
        }
        Rounds rounds = new Rounds();
        long samples = 0;
        long roundMs = -1;
        boolean first = true;
        while (more) {
            int length = packets.length();
            if (length > 0) {
                long blockMs = (Ticks.toNs(samples, audio.rate(), "the Ogg stream") + NS_PER_MS / 2) / NS_PER_MS;
                long k = blockMs * NS_PER_MS / roundNs;
                while (roundMs < k) {
                    roundMs++;
                    rounds.add(roundMs * roundNs / NS_PER_MS);
                }
                rounds.at(blockMs);
                rounds.block(packets.packetPage(), packets.packetIndex(), length);
                long duration = audio.durationSamples(packets.data(), length);
                samples += first && audio.firstPacketPlaysNothing() ? 0 : duration;
                first = false;
            }
            more = packets.next();
        }
        if (packets.otherStreams()) {
            return null;
        }
        if (rounds.count == 0) {
            throw MediaFormatException.corrupt("the Ogg stream holds no audio packet after its headers");
        }
        // the last page's granule position ends the stream where its last packet is cut short (the last samples)
        long end = packets.granule() >= samples - audio.longestPacket() && packets.granule() < samples
            ? packets.granule() : samples;
        long durationNs = Ticks.toNs(end, audio.rate(), "the Ogg stream");
        byte[] init = init(audio, durationNs);
        List<Fragment> fragments = new ArrayList<>(rounds.count);
        long offset = init.length;
        for (int i = 0; i < rounds.count; i++) {
            long startNs = i * roundNs;
            long length = rounds.clusterBytes(i);
            long fragmentNs = i == rounds.count - 1 ? Math.max(0, durationNs - startNs) : roundNs;
            fragments.add(Fragment.unplaced(startNs, fragmentNs, offset, length));
            offset += length;
        }
        MediaIndex index = new MediaIndex("webm", "audio/webm", audio.codecs(), durationNs,
            new ByteRange(0, init.length), fragments);
        return new OggWebmRemuxer(in, packets.serial(), init, index, rounds);
    }

    private static byte[] init(Audio audio, long durationNs) {
        return WebmSegment.init(NS_PER_MS, null, durationNs, audio.trackEntry());
    }

    /** A TrackEntry of track 1, audio, with {@code codec} and its private data. */
    private static byte[] trackEntry(String codecId, byte[] codecPrivate, Audio audio, byte[]... more) {
        List<byte[]> parts = new ArrayList<>(List.of(EbmlWriter.uint(Ebml.TRACK_NUMBER, 1),
            EbmlWriter.uint(TRACK_UID, 1), EbmlWriter.uint(Ebml.TRACK_TYPE, AUDIO_TRACK),
            EbmlWriter.string(Ebml.CODEC_ID, codecId), EbmlWriter.element(Ebml.CODEC_PRIVATE, codecPrivate)));
        parts.addAll(List.of(more));
        parts.add(EbmlWriter.element(Ebml.AUDIO, EbmlWriter.float64(Ebml.SAMPLING_FREQUENCY, audio.rate()),
            EbmlWriter.uint(Ebml.CHANNELS, audio.channels())));
        return EbmlWriter.element(Ebml.TRACK_ENTRY, parts.toArray(byte[][]::new));
    }

    @Override
    public MediaIndex index() {
        return index;
    }

    @Override
    public void writeInit(WritableByteChannel out) throws IOException {
        writeFully(out, ByteBuffer.wrap(init));
    }

    @Override
    public void writeFragment(int i, WritableByteChannel out) throws IOException {
        int length = (int) index.fragments().get(i).length();
        if (cluster.capacity() < length) {
            cluster = ByteBuffer.allocate(length);
        }
        cluster.clear().limit(length);
        long clusterMs = rounds.clusterMs[i];
        WebmSegment.putClusterHeader(cluster, clusterMs, rounds.blockBytes[i]);
        if (rounds.blocks[i] > 0) {
            OggDemuxer packets = new OggDemuxer(in, rounds.page[i], serial);
            int skip = rounds.index[i];
            int written = 0;
            int[] relativeMs = rounds.relativeMs;
            int first = rounds.firstBlock[i];
            while (written < rounds.blocks[i]) {
                if (!packets.next()) {
                    throw changed(i, "the stream ends before its packets do");
                }
                if (skip > 0) {
                    skip--;
                    continue;
                }
                int n = packets.length();
                if (n == 0) {
                    continue;
                }
                if (cluster.remaining() < EbmlWriter.headerLength(Ebml.SIMPLE_BLOCK, BLOCK_HEADER_BYTES + n)
                    + BLOCK_HEADER_BYTES + n) {
                    throw changed(i, "its packets are longer than they were");
                }
                EbmlWriter.putHeader(cluster, Ebml.SIMPLE_BLOCK, BLOCK_HEADER_BYTES + n);
                cluster.put((byte) 0x81);
                cluster.putShort((short) relativeMs[first + written]);
                cluster.put((byte) 0x80);
                cluster.put(packets.data(), 0, n);
                written++;
            }
        }
        if (cluster.hasRemaining()) {
            throw changed(i, "its packets are shorter than they were");
        }
        cluster.flip();
        writeFully(out, cluster);
    }

    private IOException changed(int i, String what) {
        return new IOException("the source no longer matches what was planned for fragment " + i
            + " (did the file change?): " + what);
    }

    private static void writeFully(WritableByteChannel out, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            out.write(buf);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /**
     * The plan per round, in primitive arrays: its Cluster's Timecode, where its first packet
     * begins (the page, and how many packets began on it before), how many blocks and bytes it
     * holds; and each block's time relative to its Cluster.
     */
    private static final class Rounds {
        private int count;
        private long[] clusterMs = new long[64];
        private long[] page = new long[64];
        private int[] index = new int[64];
        private int[] blocks = new int[64];
        private int[] firstBlock = new int[64];
        private long[] blockBytes = new long[64];
        private int blockCount;
        private int[] relativeMs = new int[1024];
        private long pendingMs;

        void add(long ms) {
            if (count == clusterMs.length) {
                int n = count * 2;
                clusterMs = Arrays.copyOf(clusterMs, n);
                page = Arrays.copyOf(page, n);
                index = Arrays.copyOf(index, n);
                blocks = Arrays.copyOf(blocks, n);
                firstBlock = Arrays.copyOf(firstBlock, n);
                blockBytes = Arrays.copyOf(blockBytes, n);
            }
            clusterMs[count] = ms;
            firstBlock[count] = blockCount;
            count++;
        }

        /** Sets the time of the next block, in ms from the start. */
        void at(long ms) {
            pendingMs = ms;
        }

        void block(long packetPage, int packetIndex, int length) {
            int r = count - 1;
            if (blocks[r] == 0) {
                page[r] = packetPage;
                index[r] = packetIndex;
            }
            blocks[r]++;
            blockBytes[r] += EbmlWriter.headerLength(Ebml.SIMPLE_BLOCK, BLOCK_HEADER_BYTES + length)
                + BLOCK_HEADER_BYTES + length;
            if (blockCount == relativeMs.length) {
                relativeMs = Arrays.copyOf(relativeMs, blockCount * 2);
            }
            relativeMs[blockCount++] = (int) (pendingMs - clusterMs[r]);
        }

        long clusterBytes(int r) {
            return WebmSegment.clusterBytes(clusterMs[r], blockBytes[r]);
        }
    }

    /** Vorbis I: the three headers, and packet durations from the modes' block sizes. */
    private static final class Vorbis implements Audio {
        private final byte[] identification;
        private final int channels;
        private final long rate;
        private final int[] blockSizes = new int[2];
        private byte[] comment;
        private byte[] setup;
        private boolean[] modeLong;
        private int modeBits;
        private int previousBlock;

        Vorbis(byte[] identification) throws MediaFormatException {
            this.identification = identification;
            ByteBuffer id = ByteBuffer.wrap(identification).order(ByteOrder.LITTLE_ENDIAN);
            channels = id.get(11) & 0xFF;
            rate = id.getInt(12) & 0xFFFF_FFFFL;
            blockSizes[0] = 1 << (id.get(28) & 0x0F);
            blockSizes[1] = 1 << ((id.get(28) & 0xF0) >>> 4);
            if (channels == 0 || rate == 0 || blockSizes[0] < 64 || blockSizes[1] < blockSizes[0]
                || blockSizes[1] > 8192) {
                throw MediaFormatException.corrupt("the Vorbis identification header gives " + channels + " channels, "
                    + rate + " Hz and block sizes " + blockSizes[0] + " and " + blockSizes[1]);
            }
            previousBlock = blockSizes[0];
        }

        @Override
        public boolean header(int n, byte[] packet, int length) throws MediaFormatException {
            if (n == 1 && length >= 7 && packet[0] == 3) {
                comment = vendorOnly(packet, length);
                return true;
            }
            if (n == 2 && length >= 7 && packet[0] == 5) {
                setup = Arrays.copyOf(packet, length);
                modes();
                return true;
            }
            if (n <= 2) {
                throw MediaFormatException.corrupt("the Vorbis stream's header " + (n + 1) + " is missing");
            }
            return false;
        }

        /** The comment header with the vendor string and no comments. */
        private static byte[] vendorOnly(byte[] packet, int length) throws MediaFormatException {
            long vendor = length >= 11 ? ByteBuffer.wrap(packet, 7, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()
                & 0xFFFF_FFFFL : -1;
            if (vendor < 0 || 11 + vendor > length) {
                throw MediaFormatException.corrupt("the Vorbis comment header's vendor string runs past its end");
            }
            ByteBuffer out = ByteBuffer.allocate(11 + (int) vendor + 5).order(ByteOrder.LITTLE_ENDIAN);
            out.put(packet, 0, 11 + (int) vendor);
            out.putInt(0);
            out.put((byte) 1);
            return out.array();
        }

        /** The modes' block flags, read backwards from the framing bit at the end of the setup header. */
        private void modes() throws MediaFormatException {
            BackwardBits bits = new BackwardBits(setup);
            int framing = -1;
            while (bits.left() > 97) {
                if (bits.bit() == 1) {
                    framing = bits.position();
                    break;
                }
            }
            if (framing < 0) {
                throw MediaFormatException.corrupt("the Vorbis setup header has no framing bit");
            }
            int modes = 0;
            int count = 0;
            while (bits.left() >= 97) {
                if (bits.bits(8) > 63 || bits.bits(16) != 0 || bits.bits(16) != 0) {
                    break;
                }
                bits.bits(1);
                count++;
                if (count > 64) {
                    break;
                }
                if (bits.copy().bits(6) + 1 == count) {
                    modes = count;
                }
            }
            if (modes == 0) {
                throw MediaFormatException.corrupt("the Vorbis setup header's modes cannot be found");
            }
            modeLong = new boolean[modes];
            bits.seek(framing);
            for (int i = modes - 1; i >= 0; i--) {
                bits.bits(40);
                modeLong[i] = bits.bit() == 1;
            }
            modeBits = 32 - Integer.numberOfLeadingZeros(modes - 1);
        }

        @Override
        public long durationSamples(byte[] packet, int length) throws MediaFormatException {
            if ((packet[0] & 1) != 0) {
                throw MediaFormatException.corrupt("a Vorbis audio packet is marked as a header");
            }
            int mode = modeBits == 0 ? 0 : (packet[0] >>> 1) & ((1 << modeBits) - 1);
            if (mode >= modeLong.length) {
                throw MediaFormatException.corrupt("a Vorbis packet uses mode " + mode + " of " + modeLong.length);
            }
            int previous = previousBlock;
            if (modeLong[mode]) {
                boolean previousLong = length > 0 && (packet[0] & (1 << (modeBits + 1))) != 0;
                previous = blockSizes[previousLong ? 1 : 0];
            }
            int current = blockSizes[modeLong[mode] ? 1 : 0];
            previousBlock = current;
            return (previous + current) / 4;
        }

        @Override
        public long rate() {
            return rate;
        }

        @Override
        public int channels() {
            return channels;
        }

        @Override
        public int headers() {
            return 3;
        }

        @Override
        public boolean firstPacketPlaysNothing() {
            return true;
        }

        @Override
        public long longestPacket() {
            return blockSizes[1] / 2;
        }

        @Override
        public String codecs() {
            return "vorbis";
        }

        @Override
        public byte[] trackEntry() {
            ByteArrayOutputStream p = new ByteArrayOutputStream();
            p.write(2);
            xiphLength(p, identification.length);
            xiphLength(p, comment.length);
            p.writeBytes(identification);
            p.writeBytes(comment);
            p.writeBytes(setup);
            return OggWebmRemuxer.trackEntry("A_VORBIS", p.toByteArray(), this);
        }

        private static void xiphLength(ByteArrayOutputStream out, int length) {
            int n = length;
            while (n >= 255) {
                out.write(255);
                n -= 255;
            }
            out.write(n);
        }
    }

    /** Opus (RFC 7845): the OpusHead, the OpusTags, and packet durations from their TOC byte. */
    private static final class Opus implements Audio {
        private static final int[] SILK_MS10 = {100, 200, 400, 600};
        private final byte[] head;
        private final int channels;
        private final int preSkip;

        Opus(byte[] head) throws MediaFormatException {
            this.head = head;
            ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
            channels = h.get(9) & 0xFF;
            preSkip = h.getShort(10) & 0xFFFF;
            if (channels == 0 || (h.get(18) & 0xFF) != 0 && head.length < 21 + channels) {
                throw MediaFormatException.corrupt("the OpusHead gives " + channels + " channels and mapping family "
                    + (h.get(18) & 0xFF) + " in " + head.length + " bytes");
            }
        }

        @Override
        public boolean header(int n, byte[] packet, int length) throws MediaFormatException {
            if (n == 1) {
                if (length < 8 || !startsWith(Arrays.copyOf(packet, 8), 0, "OpusTags")) {
                    throw MediaFormatException.corrupt("the Opus stream's second packet is no OpusTags");
                }
                return true;
            }
            return false;
        }

        @Override
        public long durationSamples(byte[] packet, int length) throws MediaFormatException {
            int toc = packet[0] & 0xFF;
            int config = toc >>> 3;
            long frameSamples;
            if (config < 12) {
                frameSamples = SILK_MS10[config & 3] * OPUS_RATE / 10_000;
            } else if (config < 16) {
                frameSamples = (config & 1) == 0 ? 480 : 960;
            } else {
                frameSamples = 120L << (config & 3);
            }
            int code = toc & 3;
            int frames = code == 0 ? 1 : code < 3 ? 2 : length > 1 ? packet[1] & 0x3F : 0;
            if (frames == 0) {
                throw MediaFormatException.corrupt("an Opus packet of code 3 gives no frame count");
            }
            return frames * frameSamples;
        }

        @Override
        public long rate() {
            return OPUS_RATE;
        }

        @Override
        public int channels() {
            return channels;
        }

        @Override
        public int headers() {
            return 2;
        }

        @Override
        public boolean firstPacketPlaysNothing() {
            return false;
        }

        @Override
        public long longestPacket() {
            return OPUS_RATE * 120 / 1000;
        }

        @Override
        public String codecs() {
            return "opus";
        }

        @Override
        public byte[] trackEntry() {
            long codecDelayNs = preSkip * Ticks.NS_PER_SECOND / OPUS_RATE;
            return OggWebmRemuxer.trackEntry("A_OPUS", head, this, EbmlWriter.uint(Ebml.CODEC_DELAY, codecDelayNs),
                EbmlWriter.uint(SEEK_PRE_ROLL, OPUS_SEEK_PRE_ROLL_NS));
        }
    }

    /** The bits of a Vorbis header from its last bit backwards: Vorbis packs bits from the low end of each byte. */
    private static final class BackwardBits {
        private final byte[] b;
        private int position;

        BackwardBits(byte[] b) {
            this.b = b;
        }

        int left() {
            return b.length * 8 - position;
        }

        int position() {
            return position;
        }

        void seek(int to) {
            position = to;
        }

        BackwardBits copy() {
            BackwardBits c = new BackwardBits(b);
            c.position = position;
            return c;
        }

        int bit() {
            int at = position++;
            return (b[b.length - 1 - at / 8] >>> (7 - at % 8)) & 1;
        }

        int bits(int n) {
            int v = 0;
            for (int i = 0; i < n && left() > 0; i++) {
                v = (v << 1) | bit();
            }
            return v;
        }
    }
}
