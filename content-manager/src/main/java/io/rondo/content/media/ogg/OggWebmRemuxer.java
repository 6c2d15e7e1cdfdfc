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
import java.io.IOException;
import java.nio.ByteBuffer;
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
            OggAudio audio = codec.vorbis ? new VorbisAudio(first) : new OpusAudio(first);
            OggWebmRemuxer remuxer = plan(in, packets, audio, roundNs);
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

    /** Whether {@code b} starts with the ISO 8859-1 bytes of {@code prefix}. */
    static boolean startsWith(byte[] b, int length, String prefix) {
        byte[] p = prefix.getBytes(StandardCharsets.ISO_8859_1);
        return b.length >= p.length && Arrays.equals(b, 0, p.length, p, 0, p.length);
    }

    private static OggWebmRemuxer plan(MediaFile in, OggDemuxer packets, OggAudio audio, long roundNs)
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

    private static byte[] init(OggAudio audio, long durationNs) {
        return WebmSegment.init(NS_PER_MS, null, durationNs, audio.trackEntry());
    }

    @Override
    public MediaIndex index() {
        return index;
    }

    @Override
    public void writeInit(WritableByteChannel out) throws IOException {
        StoredMedia.writeFully(out, ByteBuffer.wrap(init));
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
        StoredMedia.writeFully(out, cluster);
    }

    private IOException changed(int i, String what) {
        return new IOException("the source no longer matches what was planned for fragment " + i
            + " (did the file change?): " + what);
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
}
