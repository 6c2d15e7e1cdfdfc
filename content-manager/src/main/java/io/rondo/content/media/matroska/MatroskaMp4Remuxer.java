package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.isobmff.FragmentedMp4Writer;
import io.rondo.content.media.isobmff.SampleEntryBoxes;
import io.rondo.content.media.isobmff.SampleTrack;
import io.rondo.content.media.isobmff.TrackHeader;
import io.rondo.content.media.matroska.MatroskaDemuxer.Track;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Matroska whose codecs browsers play from MP4 but not from WebM (H.264 or H.265 video; AAC, MP3
 * or Opus audio beside it) remuxed into the fragmented MP4 that {@link FragmentedMp4Writer} stores:
 * one moof + mdat per round T, every frame's bytes copied untouched.
 *
 * <p>Each audio and video track becomes a {@link SampleTrack}:
 * <ul>
 *   <li>its sample entry is built from the TrackEntry: {@code avc1} + {@code avcC} (H.264) and
 *       {@code hvc1} + {@code hvcC} (H.265) hold CodecPrivate verbatim, which is the decoder
 *       configuration record, with PixelWidth and PixelHeight; {@code mp4a} + {@code esds} holds
 *       AAC's AudioSpecificConfig (CodecPrivate, or for an old {@code A_AAC/MPEG4/LC} style CodecID
 *       without one, made from the profile, rate and channels) as DecoderSpecificInfo, object type
 *       0x40, or MP3 as object type 0x6B without one; {@code Opus} + {@code dOps} is CodecPrivate's OpusHead made
 *       big-endian (Encapsulation of Opus in ISOBMFF, 4.3.2);
 *   <li>each frame (a laced block holds several) is a sample at its offset and size in the source.
 *       Video counts 90 kHz, audio its sampling frequency (48 kHz for Opus);
 *   <li>Matroska stores presentation times in decode order. A track's i-th decode time is its i-th
 *       smallest presentation time, moved back by the least amount that decodes no frame after it
 *       is presented (the B-frame delay); the composition offset is the difference. Where that
 *       moves the first decode time before 0, and for a track's CodecDelay (Opus pre-skip), the
 *       decode times start at 0 and the edit shift presents the right media time at 0, as an MP4
 *       edit list does;
 *   <li>a sample lasts until the next one is decoded; the last one its BlockDuration, else its
 *       track's DefaultDuration, else as long as the one before it;
 *   <li>video samples are sync samples where the block is a keyframe; every audio sample is one.
 * </ul>
 * Language, names, chapters, tags and subtitle tracks are not kept.
 */
final class MatroskaMp4Remuxer {

    /** The timescale of video tracks: 90 kHz, which counts the frames of every common rate exactly. */
    static final long VIDEO_TIMESCALE = 90_000;

    private static final long OPUS_TIMESCALE = 48_000;
    private static final long NS_PER_SECOND = 1_000_000_000L;
    private static final int OPUS_HEAD_BYTES = 19;
    private static final int FRAME_CAPACITY = 256;
    /** The sampling frequencies of ISO/IEC 14496-3 1.6.3.4, by samplingFrequencyIndex. */
    private static final double[] SAMPLING_FREQUENCIES = {96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050,
        16000, 12000, 11025, 8000, 7350};
    /** The old AAC CodecIDs: {@code A_AAC/MPEG2/} or {@code A_AAC/MPEG4/} and the profile. */
    private static final int OLD_AAC_PREFIX = "A_AAC/MPEG4/".length();

    private MatroskaMp4Remuxer() {
    }

    /**
     * Whether every audio and video track of {@code tracks} is one this remuxer stores as MP4: H.264
     * or H.265 video, AAC, MP3 or Opus audio, each with the CodecPrivate it needs, none compressed by
     * its muxer.
     */
    static boolean remuxes(List<Track> tracks) {
        boolean any = false;
        for (Track t : tracks) {
            if (!t.isVideo() && !t.isAudio()) {
                continue;
            }
            if (t.compressed() || !supported(t)) {
                return false;
            }
            any = true;
        }
        return any;
    }

    private static boolean supported(Track t) {
        int privateBytes = t.codecPrivate() == null ? 0 : t.codecPrivate().remaining();
        String codec = t.codecId();
        if (t.isVideo()) {
            return (codec.equals("V_MPEG4/ISO/AVC") || codec.equals("V_MPEGH/ISO/HEVC")) && privateBytes > 0
                && t.pixelWidth() > 0 && t.pixelWidth() <= 0xFFFF && t.pixelHeight() > 0 && t.pixelHeight() <= 0xFFFF;
        }
        if (!(t.samplingFrequency() >= 1 && t.samplingFrequency() <= 0xFFFF_FFFFL) || t.channels() < 1
            || t.channels() > 0xFF) {
            return false;
        }
        if (codec.startsWith("A_AAC/") && privateBytes == 0) {
            return aacObjectType(codec) > 0 && samplingFrequencyIndex(t.samplingFrequency()) >= 0 && t.channels() <= 7;
        }
        return switch (codec) {
            case "A_AAC" -> privateBytes >= 2;
            case "A_MPEG/L3" -> true;
            case "A_OPUS" -> privateBytes >= OPUS_HEAD_BYTES && opusHead(t.codecPrivate(), privateBytes);
            default -> false;
        };
    }

    /** Whether CodecPrivate is an OpusHead, with the channel mapping table that a mapping family other than 0 needs. */
    private static boolean opusHead(ByteBuffer codecPrivate, int bytes) {
        byte[] magic = new byte[8];
        codecPrivate.get(codecPrivate.position(), magic);
        int channels = codecPrivate.get(codecPrivate.position() + 9) & 0xFF;
        int family = codecPrivate.get(codecPrivate.position() + OPUS_HEAD_BYTES - 1);
        return new String(magic, StandardCharsets.US_ASCII).equals("OpusHead") && channels > 0
            && (family == 0 || bytes >= OPUS_HEAD_BYTES + 2 + channels);
    }

    /**
     * Plans the stored fragmented MP4 of the Matroska file {@code file}, which {@code demuxer} has
     * opened and whose tracks {@link #remuxes}.
     *
     * @throws MediaFormatException if the file is corrupt or holds no frame of an audio or video track
     */
    static FragmentedMp4Writer plan(MatroskaDemuxer demuxer, Path file, long roundNs) throws IOException {
        List<Track> kept = demuxer.tracks().stream().filter(t -> t.isVideo() || t.isAudio()).toList();
        Frames[] frames = new Frames[kept.size()];
        for (int t = 0; t < frames.length; t++) {
            frames[t] = new Frames();
        }
        long[] offsets = new long[FRAME_CAPACITY];
        int[] sizes = new int[FRAME_CAPACITY];
        BlockCursor block = demuxer.blocks();
        while (block.next()) {
            int t = 0;
            while (t < kept.size() && kept.get(t).number() != block.track()) {
                t++;
            }
            if (t == kept.size()) {
                continue;
            }
            Track track = kept.get(t);
            int n = block.frames();
            block.frames(offsets, sizes);
            long startNs = demuxer.ns(block.timecode(), block.describe()) - track.codecDelayNs();
            long blockNs = block.durationTicks() >= 0 ? demuxer.ns(block.durationTicks(), block.describe()) : -1;
            long frameNs = track.defaultDurationNs() > 0 ? track.defaultDurationNs() : blockNs >= 0 ? blockNs / n : 0;
            for (int j = 0; j < n; j++) {
                boolean sync = track.isAudio() || (block.keyframe() && j == 0);
                frames[t].add(offsets[j], sizes[j], startNs + j * frameNs, sync, blockNs >= 0 ? frameNs : -1);
            }
        }
        List<SampleTrack> tracks = new ArrayList<>();
        boolean avc = false;
        for (int t = 0; t < frames.length; t++) {
            if (frames[t].count > 0) {
                tracks.add(samples(kept.get(t), frames[t]));
                avc |= kept.get(t).codecId().equals("V_MPEG4/ISO/AVC");
            }
        }
        if (tracks.isEmpty()) {
            throw MediaFormatException.corrupt("the Segment holds no block of an audio or video track:"
                + " there is no media to play");
        }
        List<String> brands = avc ? List.of("isom", "iso2", "avc1") : List.of("isom", "iso2");
        return FragmentedMp4Writer.plan(file, tracks, brands, roundNs);
    }

    /** The frames of one track in file (decode) order, with presentation times in ns. */
    private static final class Frames {
        private long[] offsets = new long[FRAME_CAPACITY];
        private int[] sizes = new int[FRAME_CAPACITY];
        private long[] presentationNs = new long[FRAME_CAPACITY];
        private boolean[] sync = new boolean[FRAME_CAPACITY];
        private int count;
        /** The last frame's duration from its block, or -1 where the block did not say. */
        private long lastDurationNs = -1;

        void add(long offset, int size, long ns, boolean isSync, long durationNs) {
            if (count == offsets.length) {
                int capacity = count + (count >> 1);
                offsets = Arrays.copyOf(offsets, capacity);
                sizes = Arrays.copyOf(sizes, capacity);
                presentationNs = Arrays.copyOf(presentationNs, capacity);
                sync = Arrays.copyOf(sync, capacity);
            }
            offsets[count] = offset;
            sizes[count] = size;
            presentationNs[count] = ns;
            sync[count] = isSync;
            count++;
            lastDurationNs = durationNs;
        }
    }

    /** A track's samples: decode times from the sorted presentation times, see the class comment. */
    private static SampleTrack samples(Track track, Frames f) throws MediaFormatException {
        String where = "track " + track.number();
        long timescale = timescale(track);
        int n = f.count;
        long[] pts = new long[n];
        for (int i = 0; i < n; i++) {
            pts[i] = ticks(f.presentationNs[i], timescale, where);
        }
        long[] sorted = pts.clone();
        Arrays.sort(sorted);
        long shift = 0;
        for (int i = 0; i < n; i++) {
            shift = Math.max(shift, sorted[i] - pts[i]);
        }
        // Decode times dts[i] = sorted[i] - shift; stored from 0 at the earliest, the edit shifting them back.
        long editShift = Math.max(0, shift - sorted[0]);
        long lastDuration;
        if (f.lastDurationNs >= 0 || track.defaultDurationNs() > 0) {
            long ns = f.lastDurationNs >= 0 ? f.lastDurationNs : track.defaultDurationNs();
            lastDuration = ticks(ns, timescale, where);
        } else {
            lastDuration = n > 1 ? sorted[n - 1] - sorted[n - 2] : 0;
        }
        TrackHeader header = header(track, timescale, editShift);
        SampleTrack samples = new SampleTrack(header, n);
        for (int i = 0; i < n; i++) {
            long decode = sorted[i] - shift + editShift;
            long offset = pts[i] - (sorted[i] - shift);
            if (offset > Integer.MAX_VALUE) {
                throw MediaFormatException.unsupported(where + " presents a frame " + offset + " ticks of "
                    + timescale + " a second after it is decoded, more than an MP4 composition offset holds");
            }
            long duration = i + 1 < n ? sorted[i + 1] - sorted[i] : lastDuration;
            samples.add(f.offsets[i], f.sizes[i], decode, duration, (int) offset, f.sync[i]);
        }
        return samples;
    }

    private static long timescale(Track track) {
        if (track.isVideo()) {
            return VIDEO_TIMESCALE;
        }
        return track.codecId().equals("A_OPUS") ? OPUS_TIMESCALE : Math.round(track.samplingFrequency());
    }

    /** {@code ns} in ticks of {@code timescale} a second, to the nearest. */
    static long ticks(long ns, long timescale, String where) throws MediaFormatException {
        long seconds = Math.floorDiv(ns, NS_PER_SECOND);
        long rest = Math.floorMod(ns, NS_PER_SECOND);
        try {
            return Math.addExact(Math.multiplyExact(seconds, timescale), (rest * timescale + NS_PER_SECOND / 2)
                / NS_PER_SECOND);
        } catch (ArithmeticException e) {
            throw MediaFormatException.corrupt(where + " holds a time of " + ns + " ns, too large to be real");
        }
    }

    private static TrackHeader header(Track track, long timescale, long editShift) {
        boolean video = track.isVideo();
        byte[] entry = video ? visualEntry(track) : audioEntry(track);
        return new TrackHeader(track.number(), video ? TrackHeader.VIDEO : TrackHeader.AUDIO, timescale, entry, -1,
            TrackHeader.UNDETERMINED, 3, 0, video ? 0 : 0x0100, TrackHeader.IDENTITY,
            video ? track.pixelWidth() << 16 : 0, video ? track.pixelHeight() << 16 : 0, editShift, -1);
    }

    /** {@code avc1} + {@code avcC} or {@code hvc1} + {@code hvcC} (ISO/IEC 14496-15), CodecPrivate as the record. */
    static byte[] visualEntry(Track track) {
        boolean hevc = track.codecId().equals("V_MPEGH/ISO/HEVC");
        return SampleEntryBoxes.visual(hevc ? "hvc1" : "avc1", hevc ? "hvcC" : "avcC", bytes(track.codecPrivate()),
            (int) track.pixelWidth(), (int) track.pixelHeight());
    }

    /** {@code mp4a} + {@code esds} for AAC and MP3, {@code Opus} + {@code dOps} for Opus. */
    static byte[] audioEntry(Track track) {
        int channels = (int) track.channels();
        if (track.codecId().equals("A_OPUS")) {
            return SampleEntryBoxes.opus(channels, OPUS_TIMESCALE, track.codecPrivate());
        }
        long rate = Math.round(track.samplingFrequency());
        byte[] asc = !track.codecId().startsWith("A_AAC") ? null
            : track.codecPrivate() != null && track.codecPrivate().hasRemaining() ? bytes(track.codecPrivate())
            : audioSpecificConfig(track);
        return asc == null ? SampleEntryBoxes.mp3(channels, rate) : SampleEntryBoxes.aac(channels, rate, asc);
    }

    /** The AAC profiles of Matroska's old CodecIDs ({@code A_AAC/MPEG4/LC}) as audio object types, or 0. */
    private static int aacObjectType(String codecId) {
        if (!codecId.startsWith("A_AAC/MPEG2/") && !codecId.startsWith("A_AAC/MPEG4/")) {
            return 0;
        }
        return switch (codecId.substring(OLD_AAC_PREFIX)) {
            case "MAIN" -> 1;
            case "LC", "LC/SBR" -> 2;
            case "SSR" -> 3;
            case "LTP" -> 4;
            default -> 0;
        };
    }

    /** The samplingFrequencyIndex of ISO/IEC 14496-3 1.6.3.4, or -1 for a rate it does not list. */
    private static int samplingFrequencyIndex(double rate) {
        for (int i = 0; i < SAMPLING_FREQUENCIES.length; i++) {
            if (SAMPLING_FREQUENCIES[i] == rate) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The two-byte AudioSpecificConfig of an old-style AAC CodecID without CodecPrivate: object type,
     * frequency index and channel configuration. SBR (HE-AAC) is left to implicit signalling, as its
     * CodecID gives the core's sampling frequency.
     */
    static byte[] audioSpecificConfig(Track track) {
        int config = (aacObjectType(track.codecId()) << 11) | (samplingFrequencyIndex(track.samplingFrequency()) << 7)
            | ((int) track.channels() << 3);
        return new byte[] {(byte) (config >> 8), (byte) config};
    }

    private static byte[] bytes(ByteBuffer buf) {
        byte[] out = new byte[buf.remaining()];
        buf.get(buf.position(), out);
        return out;
    }
}
