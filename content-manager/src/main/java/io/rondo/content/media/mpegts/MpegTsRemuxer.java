package io.rondo.content.media.mpegts;

import io.rondo.content.media.FfmpegCommands;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.Ticks;
import io.rondo.content.media.isobmff.FragmentedMp4Writer;
import io.rondo.content.media.isobmff.SampleEntryBoxes;
import io.rondo.content.media.isobmff.SampleTrack;
import io.rondo.content.media.isobmff.TrackHeader;
import io.rondo.content.media.mp3.Mp3Remuxer;
import io.rondo.content.media.mpegts.MpegTsDemuxer.Stream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * An MPEG transport stream (what recorders, tuners and {@code ffmpeg -f mpegts} write; Blu-ray and
 * AVCHD {@code .m2ts}) remuxed at ingest into the fragmented MP4 that {@link FragmentedMp4Writer}
 * stores: one moof + mdat per round T, each round's video starting at its keyframe where the
 * encoder put one there.
 *
 * <p>Unlike MP4 and Matroska, a transport stream scatters each frame over 188-byte packets and
 * frames it for a byte stream, so its samples cannot be copied from the source as they are. They
 * are rewritten, once, into a file of samples in a scratch folder (at ingest, the disk's
 * {@code rondo/tmp/}; the file is unlinked as it is opened, so that nothing is left of it after
 * the ingest, even after a crash), and the writer copies them from there:
 * <ul>
 *   <li>H.264 (stream type 0x1B) and H.265 (0x24, or 0x06 registered {@code HEVC}): each PES
 *       packet is an access unit in Annex B; its NAL units get a 4-byte length instead of a start
 *       code, access unit delimiters and filler data are dropped, parameter sets stay in band (so a
 *       stream that changes them still plays) and the first ones make the {@code avcC} or
 *       {@code hvcC} of an {@code avc1} or {@code hev1} sample entry. A sync sample is an IDR (or
 *       an I picture with a recovery point SEI) for H.264, an IRAP picture for H.265. Frames before
 *       the first sync sample cannot be decoded and are dropped (a stream without any makes the
 *       file discrete, with a note, rather than lose its video silently). Times count 90 kHz;
 *   <li>AAC in ADTS (0x0F): each ADTS frame loses its header and is a sample of 1024 samples;
 *       the first frame's header makes the AudioSpecificConfig of an {@code mp4a}. MP3 (0x03,
 *       0x04): each frame, header and all, is a sample. Times count the sampling rate, from the
 *       PES packet's PTS and on frame by frame, starting again from a PTS that jumps ahead of them
 *       by more than a frame (a gap in the recording).
 * </ul>
 * Times start at 0: the earliest presentation time of any kept stream is subtracted, after the
 * 33-bit timestamps are unwrapped ({@link MpegTsDemuxer}); a video track whose first frame is
 * decoded before that (B-frames) starts with an edit that presents it at 0.
 *
 * <p>A stream whose codec browsers do not play from MP4 (MPEG-2 video, AC-3, MPEG audio layer II,
 * AAC in LATM, ...) makes the file discrete, with a note naming it and the ffmpeg command that
 * copies what can be copied, as for MP4 and Matroska. Subtitle, teletext and data streams (ID3,
 * SCTE-35) are dropped; so are the programs after the first.
 */
public final class MpegTsRemuxer {

    private static final int H264 = 0x1B;
    private static final int HEVC = 0x24;
    private static final int AAC_ADTS = 0x0F;
    private static final int MPEG1_AUDIO = 0x03;
    private static final int MPEG2_AUDIO = 0x04;
    private static final int PRIVATE_PES = 0x06;
    private static final int AAC_FRAME_SAMPLES = 1024;
    private static final int ADTS_HEADER_BYTES = 7;
    private static final int SCRATCH_BUFFER_BYTES = 1 << 20;
    /** The sampling frequencies of ISO/IEC 14496-3 1.6.3.4, by samplingFrequencyIndex. */
    private static final int[] SAMPLING_FREQUENCIES = {96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050,
        16000, 12000, 11025, 8000, 7350};

    /** Video codecs by stream type that no browser plays from MP4. */
    private static final Map<Integer, String> OTHER_VIDEO = Map.of(0x01, "MPEG-1 video", 0x02, "MPEG-2 video",
        0x10, "MPEG-4 Part 2 video", 0x1F, "H.264 SVC", 0x20, "H.264 MVC (3D)", 0x33, "H.266/VVC", 0x42, "AVS video",
        0xD1, "Dirac", 0xEA, "VC-1");
    /** Audio codecs by stream type that no browser plays from MP4. */
    private static final Map<Integer, String> OTHER_AUDIO = Map.of(0x11, "AAC in LATM", 0x80, "PCM (Blu-ray LPCM)",
        0x81, "AC-3 (Dolby Digital)", 0x83, "Dolby TrueHD", 0x84, "E-AC-3 (Dolby Digital Plus)", 0x85, "DTS-HD",
        0x87, "E-AC-3 (Dolby Digital Plus)", 0xA1, "E-AC-3 (Dolby Digital Plus)", 0xA2, "DTS-HD");
    /** Audio codecs of private PES streams (0x06) by their DVB descriptor tag. */
    private static final Map<Integer, String> DESCRIBED_AUDIO = Map.of(0x6A, "AC-3 (Dolby Digital)",
        0x7A, "E-AC-3 (Dolby Digital Plus)", 0x7B, "DTS", 0x7C, "AAC (DVB descriptor)");
    /** Codecs of private PES streams by their registration descriptor's format identifier. */
    private static final Map<String, String> REGISTERED = Map.of("AC-3", "AC-3 (Dolby Digital)",
        "EAC3", "E-AC-3 (Dolby Digital Plus)", "DTS1", "DTS", "DTS2", "DTS", "DTS3", "DTS", "Opus", "Opus",
        "BSSD", "PCM (SMPTE 302M)", "VC-1", "VC-1", "drac", "Dirac");
    private static final List<String> REGISTERED_VIDEO = List.of("VC-1", "drac");

    private MpegTsRemuxer() {
    }

    /**
     * Whether {@code head}, a file's first bytes, is a transport stream: 188-byte (or 192-byte)
     * packets, every one starting with the sync byte 0x47.
     */
    public static boolean sniff(ByteBuffer head) {
        return MpegTsDemuxer.packetBytes(head) > 0;
    }

    /**
     * What ingest makes of the transport stream {@code file}: a fragmented MP4 of one moof + mdat
     * per round, or a discrete object with a note if a stream's codec does not play in browsers.
     *
     * @param roundNs the round length T
     * @param scratch the folder for the file of rewritten samples (a disk's own temporary folder)
     * @throws MediaFormatException if the file is corrupt, or holds no frame that can be played
     */
    public static Preparation prepare(Path file, long roundNs, Path scratch) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(MpegTsDemuxer.M2TS_PACKET_BYTES * 8);
            int read;
            do {
                read = in.read(head, head.position());
            } while (read > 0 && head.hasRemaining());
            head.flip();
            int packetBytes = MpegTsDemuxer.packetBytes(head);
            if (packetBytes == 0) {
                return new Preparation.Discrete(null);
            }
            Samples out = Samples.open(scratch);
            try {
                Collector collector = new Collector(out);
                long skipped = MpegTsDemuxer.read(in, packetBytes, collector);
                if (collector.program == null || !collector.unplayable.isEmpty() || collector.tracks.isEmpty()) {
                    out.close();
                    return new Preparation.Discrete(collector.note(file));
                }
                collector.finish();
                String keyless = collector.keyless(file);
                if (keyless != null) {
                    out.close();
                    return new Preparation.Discrete(keyless);
                }
                return new Preparation.Continuous(collector.plan(roundNs, skipped));
            } catch (IOException | RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }

    /** Finds the program's streams, rewrites the kept ones' samples, and notes the ones that do not play. */
    private static final class Collector implements MpegTsDemuxer.Listener {
        private final Samples out;
        private final Map<Integer, Track> tracks = new LinkedHashMap<>();
        private final List<String> unplayable = new ArrayList<>();
        private List<Stream> program;
        /** Private streams without a descriptor (ffmpeg's AAC in .m2ts): AAC if their first PES packet is ADTS. */
        private final Set<Integer> probing = new HashSet<>();
        private boolean otherVideo;
        private boolean otherAudio;

        Collector(Samples out) {
            this.out = out;
        }

        @Override
        public boolean program(List<Stream> streams) {
            program = streams;
            for (Stream s : streams) {
                int type = s.streamType();
                String registered = REGISTERED.get(s.registration());
                String described = s.descriptors().stream().map(DESCRIBED_AUDIO::get).filter(n -> n != null)
                    .findFirst().orElse(null);
                if (type == H264) {
                    tracks.put(s.pid(), new VideoTrack(s, false, out));
                } else if (type == HEVC || type == PRIVATE_PES && s.registration().equals("HEVC")) {
                    tracks.put(s.pid(), new VideoTrack(s, true, out));
                } else if (type == AAC_ADTS) {
                    tracks.put(s.pid(), new AacTrack(s, out));
                } else if (type == MPEG1_AUDIO || type == MPEG2_AUDIO) {
                    tracks.put(s.pid(), new Mp3Track(s, out));
                } else if (OTHER_VIDEO.containsKey(type)) {
                    unplayable(s, OTHER_VIDEO.get(type), true);
                } else if (OTHER_AUDIO.containsKey(type)) {
                    unplayable(s, OTHER_AUDIO.get(type), false);
                } else if (type == PRIVATE_PES && registered != null) {
                    unplayable(s, registered, REGISTERED_VIDEO.contains(s.registration()));
                } else if (type == PRIVATE_PES && described != null) {
                    unplayable(s, described, false);
                } else if (type == PRIVATE_PES && s.registration().isEmpty() && s.descriptors().isEmpty()) {
                    probing.add(s.pid());
                    tracks.put(s.pid(), new AacTrack(s, out));
                }
            }
            return unplayable.isEmpty() && !tracks.isEmpty();
        }

        private void unplayable(Stream s, String codec, boolean video) {
            unplayable.add(String.format(Locale.ROOT, "stream 0x%04X is %s (stream type 0x%02X)", s.pid(), codec,
                s.streamType()));
            otherVideo |= video;
            otherAudio |= !video;
        }

        @Override
        public boolean pes(Stream stream, long pts, long dts, ByteBuffer data, long offset) throws IOException {
            Track track = tracks.get(stream.pid());
            if (track == null) {
                return true;
            }
            if (probing.remove(stream.pid()) && !adts(data)) {
                tracks.remove(stream.pid());
                return true;
            }
            track.pes(pts, dts, data, offset);
            if (track.unplayable != null) {
                unplayable(stream, track.unplayable, false);
                return false;
            }
            return true;
        }

        private static boolean adts(ByteBuffer data) {
            return data.remaining() >= ADTS_HEADER_BYTES && (data.get(data.position()) & 0xFF) == 0xFF
                && (data.get(data.position() + 1) & 0xF6) == 0xF0;
        }

        /** Why the file is discrete, and the command that makes it streamable. */
        String note(Path file) {
            if (program == null) {
                return "the MPEG transport stream holds no program map table: there is no audio or video to find";
            }
            if (unplayable.isEmpty()) {
                return "the MPEG transport stream holds no audio or video stream Rondo knows: there is nothing to"
                    + " stream";
            }
            boolean video = otherVideo || tracks.values().stream().anyMatch(t -> t.video);
            boolean audio = otherAudio || tracks.values().stream().anyMatch(t -> !t.video);
            StringJoiner options = new StringJoiner(" ");
            if (video) {
                options.add("-c:v").add(otherVideo ? "libx264" : "copy");
            }
            if (audio) {
                options.add("-c:a").add(otherAudio ? "aac" : "copy");
            }
            return String.join(" and ", unplayable) + ", which browsers do not play from MP4 (Rondo streams H.264 and"
                + " H.265 video with AAC or MP3 audio from MPEG-TS); make it streamable with: "
                + FfmpegCommands.convert(file, options.toString(), "mp4");
        }

        /** Takes in the frames still pending at the end of the file. */
        void finish() throws IOException {
            for (Track t : tracks.values()) {
                t.finish();
            }
        }

        /**
         * The note for a video stream of frames none of which a decoder can start at (no IDR or
         * recovery point, or no parameter sets before it), which would otherwise be dropped whole;
         * null if there is none.
         */
        String keyless(Path file) {
            for (Track t : tracks.values()) {
                if (t instanceof VideoTrack v && v.count == 0 && v.undecodable > 0) {
                    return String.format(Locale.ROOT, "stream 0x%04X (%s) holds %d frames but none a decoder can"
                        + " start at (%s with the parameter sets before it); make it streamable with: %s",
                        v.stream.pid(), v.hevc ? "H.265" : "H.264", v.undecodable,
                        v.hevc ? "an IRAP picture" : "an IDR picture or a recovery point",
                        FfmpegCommands.convert(file, "-c:v libx264 -c:a copy", "mp4"));
                }
            }
            return null;
        }

        /** The stored copy: every track with samples, times from 0. */
        FragmentedMp4Writer plan(long roundNs, long skipped) throws IOException {
            List<Track> kept = new ArrayList<>();
            long base = Long.MAX_VALUE;
            for (Track t : tracks.values()) {
                if (t.count > 0) {
                    kept.add(t);
                    base = Math.min(base, t.firstPts);
                }
            }
            kept.sort((a, b) -> Boolean.compare(b.video, a.video));
            if (kept.isEmpty()) {
                throw MediaFormatException.corrupt("the MPEG transport stream holds no whole frame of its "
                    + tracks.size() + " audio and video streams" + (skipped > 0 ? " (" + skipped
                    + " bytes were not transport packets)" : "") + ": there is no media to play");
            }
            out.flush();
            List<SampleTrack> samples = new ArrayList<>();
            boolean avc = false;
            for (int i = 0; i < kept.size(); i++) {
                samples.add(kept.get(i).samples(i + 1, base));
                avc |= kept.get(i) instanceof VideoTrack v && !v.hevc;
            }
            List<String> brands = avc ? List.of("isom", "iso2", "avc1") : List.of("isom", "iso2");
            return FragmentedMp4Writer.plan(out.channel, samples, brands, roundNs);
        }
    }

    /** One kept stream's samples as rewritten into the file of samples, in decode order. */
    private abstract static class Track {
        final Stream stream;
        final boolean video;
        final Samples out;
        long timescale;
        long firstPts = Long.MAX_VALUE;
        int count;
        long[] offsets = new long[256];
        int[] sizes = new int[256];
        long[] times = new long[256];
        int[] compositionOffsets = new int[256];
        boolean[] sync = new boolean[256];
        long lastDuration;
        /** The codec, where the stream turns out to hold one that does not play; else null. */
        String unplayable;

        Track(Stream stream, boolean video, Samples out) {
            this.stream = stream;
            this.video = video;
            this.out = out;
        }

        abstract void pes(long pts, long dts, ByteBuffer data, long offset) throws IOException;

        /** Takes in what is still pending at the end of the file. */
        void finish() throws IOException {
        }

        /** The sample entry, made from what the stream's first samples said. */
        abstract byte[] sampleEntry() throws MediaFormatException;

        String where() {
            return String.format(Locale.ROOT, "stream 0x%04X", stream.pid());
        }

        void add(byte[] bytes, int length, long time, int compositionOffset, boolean isSync, long duration)
            throws IOException {
            if (count > 0 && time < times[count - 1]) {
                throw MediaFormatException.corrupt(where() + " decodes a frame at " + time + " ticks of " + timescale
                    + " a second, before the frame before it (" + times[count - 1] + ")");
            }
            if (count == offsets.length) {
                int n = count * 2;
                offsets = Arrays.copyOf(offsets, n);
                sizes = Arrays.copyOf(sizes, n);
                times = Arrays.copyOf(times, n);
                compositionOffsets = Arrays.copyOf(compositionOffsets, n);
                sync = Arrays.copyOf(sync, n);
            }
            offsets[count] = out.append(bytes, length);
            sizes[count] = length;
            times[count] = time;
            compositionOffsets[count] = compositionOffset;
            sync[count] = isSync;
            lastDuration = duration;
            count++;
        }

        /** The samples as a track of id {@code id}, times from {@code base} (90 kHz) on. */
        SampleTrack samples(int id, long base) throws MediaFormatException {
            long from = Ticks.rescale(base, MpegTsDemuxer.TIMESCALE, timescale, where());
            long shift = Math.max(0, from - times[0]);
            TrackHeader header = new TrackHeader(id, video ? TrackHeader.VIDEO : TrackHeader.AUDIO, timescale,
                sampleEntry(), -1, TrackHeader.UNDETERMINED, 3, 0, video ? 0 : 0x0100, TrackHeader.IDENTITY,
                video ? (long) width() << 16 : 0, video ? (long) height() << 16 : 0, shift, -1);
            SampleTrack track = new SampleTrack(header, count);
            for (int i = 0; i < count; i++) {
                long next = i + 1 < count ? times[i + 1] : times[i] + lastDuration;
                track.add(offsets[i], sizes[i], times[i] - from + shift, next - times[i], compositionOffsets[i],
                    sync[i]);
            }
            return track;
        }

        int width() {
            return 0;
        }

        int height() {
            return 0;
        }
    }

    /** H.264 or H.265: one access unit per PES packet, Annex B rewritten with lengths. */
    private static final class VideoTrack extends Track {
        private final boolean hevc;
        private byte[] unit = new byte[1 << 16];
        private int unitLength;
        private long unitPts = MpegTsDemuxer.NO_TIME;
        private long unitDts;
        private byte[] sample = new byte[1 << 16];
        private byte[] vps;
        private byte[] sps;
        private byte[] pps;
        private ParameterSets.Config config;
        private long lastDts = MpegTsDemuxer.NO_TIME;
        /** Access units before the first one a decoder can start at: dropped. */
        private int undecodable;

        VideoTrack(Stream stream, boolean hevc, Samples out) {
            super(stream, true, out);
            this.hevc = hevc;
        }

        @Override
        void pes(long pts, long dts, ByteBuffer data, long offset) throws IOException {
            if (pts != MpegTsDemuxer.NO_TIME) {
                finish();
                unitPts = pts;
                unitDts = dts;
                unitLength = 0;
            } else if (unitPts == MpegTsDemuxer.NO_TIME) {
                return;
            }
            int n = data.remaining();
            if (unitLength + n > MpegTsDemuxer.MAX_PES_BYTES) {
                throw MediaFormatException.unsupported(where() + " holds an access unit of more than "
                    + MpegTsDemuxer.MAX_PES_BYTES + " bytes, at byte " + offset);
            }
            if (unitLength + n > unit.length) {
                unit = Arrays.copyOf(unit, Math.max(unit.length * 2, unitLength + n));
            }
            data.get(data.position(), unit, unitLength, n);
            unitLength += n;
        }

        /** Rewrites the pending access unit as a sample, if it has one that can be decoded. */
        @Override
        void finish() throws IOException {
            if (unitPts == MpegTsDemuxer.NO_TIME || unitLength == 0) {
                return;
            }
            long pts = unitPts;
            long dts = unitDts;
            unitPts = MpegTsDemuxer.NO_TIME;
            int length = 0;
            boolean isSync = false;
            int at = nextStartCode(unit, 0, unitLength);
            while (at < unitLength) {
                int from = at;
                int next = nextStartCode(unit, from, unitLength);
                int to = next < unitLength ? next - 3 : unitLength;
                while (to > from && unit[to - 1] == 0) {
                    to--;
                }
                at = next;
                if (to <= from) {
                    continue;
                }
                int type = hevc ? (unit[from] >> 1) & 0x3F : unit[from] & 0x1F;
                if (hevc ? type == 35 || type == 38 : type == 9 || type == 12) {
                    continue;
                }
                keepParameterSet(type, from, to);
                isSync |= hevc ? type >= 16 && type <= 21 : type == 5 || type == 6 && recoveryPoint(from, to);
                if (length + 4 + to - from > sample.length) {
                    sample = Arrays.copyOf(sample, Math.max(sample.length * 2, length + 4 + to - from));
                }
                ByteBuffer.wrap(sample, length, 4).putInt(to - from);
                System.arraycopy(unit, from, sample, length + 4, to - from);
                length += 4 + to - from;
            }
            if (length == 0) {
                return;
            }
            if (config == null) {
                if (!isSync || sps == null || pps == null || hevc && vps == null) {
                    undecodable++;
                    return;
                }
                config = hevc ? ParameterSets.hevc(vps, sps, pps) : ParameterSets.avc(sps, pps);
                timescale = MpegTsDemuxer.TIMESCALE;
                firstPts = pts;
            }
            long cto = pts - dts;
            if (cto > Integer.MAX_VALUE || cto < Integer.MIN_VALUE) {
                throw MediaFormatException.corrupt(where() + " presents a frame " + cto + " ticks of 90 kHz from"
                    + " when it is decoded");
            }
            long duration = lastDts == MpegTsDemuxer.NO_TIME ? 0 : dts - lastDts;
            lastDts = dts;
            firstPts = Math.min(firstPts, pts);
            add(sample, length, dts, (int) cto, isSync, Math.max(0, duration));
        }

        /** The first parameter sets, kept for the decoder configuration record. */
        private void keepParameterSet(int type, int from, int to) {
            byte[] nal = Arrays.copyOfRange(unit, from, to);
            if (hevc) {
                if (type == 32 && vps == null) {
                    vps = nal;
                } else if (type == 33 && sps == null) {
                    sps = nal;
                } else if (type == 34 && pps == null) {
                    pps = nal;
                }
            } else if (type == 7 && sps == null) {
                sps = nal;
            } else if (type == 8 && pps == null) {
                pps = nal;
            }
        }

        /** Whether the H.264 SEI NAL unit at {@code [from, to)} starts with a recovery point message (type 6). */
        private boolean recoveryPoint(int from, int to) {
            int at = from + 1;
            int payloadType = 0;
            while (at < to && (unit[at] & 0xFF) == 0xFF) {
                payloadType += 255;
                at++;
            }
            return at < to && payloadType + (unit[at] & 0xFF) == 6;
        }

        /** Where the NAL unit past the next start code ({@code 00 00 01}) from {@code from} starts, or {@code end}. */
        private static int nextStartCode(byte[] b, int from, int end) {
            for (int i = from; i + 2 < end; i++) {
                if ((b[i + 2] & 0xFF) > 1) {
                    i += 2;
                } else if (b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1) {
                    return i + 3;
                }
            }
            return end;
        }

        @Override
        byte[] sampleEntry() {
            return hevc ? SampleEntryBoxes.visual("hev1", "hvcC", config.record(), config.width(), config.height())
                : SampleEntryBoxes.visual("avc1", "avcC", config.record(), config.width(), config.height());
        }

        @Override
        int width() {
            return config.width();
        }

        @Override
        int height() {
            return config.height();
        }
    }
    /**
     * An audio stream of frames that may straddle PES packets: a PES packet's PTS belongs to the
     * first frame that starts in it; frames without one follow the frame before.
     */
    private abstract static class AudioTrack extends Track {
        private byte[] pending = new byte[1 << 14];
        private int pendingLength;
        private long pendingPts = MpegTsDemuxer.NO_TIME;
        /** Where in {@link #pending} the frames that {@link #pendingPts} times start. */
        private int ptsFrom;
        private long nextTime = Long.MIN_VALUE;

        AudioTrack(Stream stream, Samples out) {
            super(stream, false, out);
        }

        @Override
        void pes(long pts, long dts, ByteBuffer data, long offset) throws IOException {
            int n = data.remaining();
            if (pendingLength + n > pending.length) {
                pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + n));
            }
            data.get(data.position(), pending, pendingLength, n);
            if (pts != MpegTsDemuxer.NO_TIME) {
                pendingPts = pts;
                ptsFrom = pendingLength;
            }
            pendingLength += n;
            int at = 0;
            while (unplayable == null) {
                int start = frameAt(pending, at, pendingLength);
                if (start < 0) {
                    // the last bytes may start a header that the next PES packet completes
                    at = Math.max(at, pendingLength - 3);
                    break;
                }
                int next = take(start);
                if (next < 0) {
                    at = start;
                    break;
                }
                at = next;
            }
            System.arraycopy(pending, at, pending, 0, pendingLength - at);
            pendingLength -= at;
            ptsFrom = Math.max(0, ptsFrom - at);
        }

        /**
         * Takes the frame at {@code start}, if it is whole in {@link #pending}: adds its sample.
         *
         * @return where the next frame starts, or -1 if this one is not whole yet
         */
        private int take(int start) throws IOException {
            int length = frameLength(pending, start, pendingLength);
            if (length < 0) {
                return -1;
            }
            if (timescale == 0) {
                configure(pending, start);
                if (unplayable != null) {
                    return pendingLength;
                }
            }
            if (length == 0) {
                return start + 1;
            }
            if (start + length > pendingLength) {
                return -1;
            }
            long time = nextTime;
            if (pendingPts != MpegTsDemuxer.NO_TIME && start >= ptsFrom) {
                long stamped = Ticks.rescale(pendingPts, MpegTsDemuxer.TIMESCALE, timescale, where());
                if (nextTime == Long.MIN_VALUE || stamped > nextTime + frameSamples()) {
                    time = stamped;
                    firstPts = Math.min(firstPts, pendingPts);
                }
                pendingPts = MpegTsDemuxer.NO_TIME;
            }
            if (time != Long.MIN_VALUE) {
                int from = start + headerBytes(pending, start);
                add(Arrays.copyOfRange(pending, from, start + length), start + length - from, time, 0, true,
                    frameSamples());
                nextTime = time + frameSamples();
            }
            return start + length;
        }

        /** Where the next frame header at or after {@code from} is, or -1; bytes before it are skipped. */
        abstract int frameAt(byte[] b, int from, int end);

        /**
         * The length of the frame whose header is at {@code at}; -1 if its header is not whole yet, 0 if
         * it is no header after all.
         */
        abstract int frameLength(byte[] b, int at, int end);

        /** How many bytes of the frame at {@code at} are not the sample: its header where MP4 drops it. */
        abstract int headerBytes(byte[] b, int at);

        /** Takes the timescale and sample entry from the first frame, or sets {@link #unplayable}. */
        abstract void configure(byte[] b, int at);

        abstract long frameSamples();
    }

    /** AAC in ADTS (ISO/IEC 13818-7 6.2): a 7-byte header (9 with a CRC) before each raw data block. */
    private static final class AacTrack extends AudioTrack {
        private byte[] audioSpecificConfig;
        private int channels;

        AacTrack(Stream stream, Samples out) {
            super(stream, out);
        }

        @Override
        int frameAt(byte[] b, int from, int end) {
            for (int i = from; i + 1 < end; i++) {
                if ((b[i] & 0xFF) == 0xFF && (b[i + 1] & 0xF6) == 0xF0) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        int frameLength(byte[] b, int at, int end) {
            if (at + ADTS_HEADER_BYTES > end) {
                return -1;
            }
            int length = ((b[at + 3] & 0x03) << 11) | ((b[at + 4] & 0xFF) << 3) | ((b[at + 5] & 0xE0) >> 5);
            return length > headerBytes(b, at) ? length : 0;
        }

        @Override
        int headerBytes(byte[] b, int at) {
            return (b[at + 1] & 1) == 0 ? ADTS_HEADER_BYTES + 2 : ADTS_HEADER_BYTES;
        }

        @Override
        void configure(byte[] b, int at) {
            int objectType = ((b[at + 2] & 0xFF) >> 6) + 1;
            int frequency = (b[at + 2] & 0x3C) >> 2;
            channels = ((b[at + 2] & 0x01) << 2) | ((b[at + 3] & 0xC0) >> 6);
            int blocks = b[at + 6] & 0x03;
            if (frequency >= SAMPLING_FREQUENCIES.length || channels == 0 || blocks != 0) {
                unplayable = "AAC in ADTS frames of " + (blocks + 1) + " raw data blocks, sampling frequency index "
                    + frequency + " and channel configuration " + channels;
                return;
            }
            timescale = SAMPLING_FREQUENCIES[frequency];
            int config = (objectType << 11) | (frequency << 7) | (channels << 3);
            audioSpecificConfig = new byte[] {(byte) (config >> 8), (byte) config};
        }

        @Override
        long frameSamples() {
            return AAC_FRAME_SAMPLES;
        }

        @Override
        byte[] sampleEntry() {
            return SampleEntryBoxes.aac(channels == 7 ? 8 : channels, timescale, audioSpecificConfig);
        }
    }

    /** MPEG audio: Layer III frames are MP3 samples, headers and all; Layer II and I do not play. */
    private static final class Mp3Track extends AudioTrack {
        private int channels;
        private long samplesPerFrame;

        Mp3Track(Stream stream, Samples out) {
            super(stream, out);
        }

        @Override
        int frameAt(byte[] b, int from, int end) {
            for (int i = from; i + 3 < end; i++) {
                if (Mp3Remuxer.isFrameHeader(header(b, i)) || timescale == 0 && otherLayer(header(b, i))) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        int frameLength(byte[] b, int at, int end) {
            if (at + 4 > end) {
                return -1;
            }
            int header = header(b, at);
            return Mp3Remuxer.isFrameHeader(header) ? Mp3Remuxer.frameBytes(header) : 0;
        }

        @Override
        int headerBytes(byte[] b, int at) {
            return 0;
        }

        @Override
        void configure(byte[] b, int at) {
            int header = header(b, at);
            if (!Mp3Remuxer.isFrameHeader(header)) {
                unplayable = ((header >>> 17) & 3) == 2 ? "MPEG audio layer II (MP2)" : "MPEG audio layer I";
                return;
            }
            timescale = Mp3Remuxer.sampleRate(header);
            samplesPerFrame = Mp3Remuxer.samplesPerFrame(header);
            channels = ((header >>> 6) & 3) == 3 ? 1 : 2;
        }

        @Override
        long frameSamples() {
            return samplesPerFrame;
        }

        @Override
        byte[] sampleEntry() {
            return SampleEntryBoxes.mp3(channels, timescale);
        }

        private static int header(byte[] b, int at) {
            return ByteBuffer.wrap(b, at, 4).getInt();
        }

        /** A layer I or II header with a bit rate: MPEG audio, but not MP3. */
        private static boolean otherLayer(int header) {
            int layer = (header >>> 17) & 3;
            int bitrate = (header >>> 12) & 15;
            return (header >>> 21) == 0x7FF && ((header >>> 19) & 3) != 1 && (layer == 2 || layer == 3)
                && bitrate != 0 && bitrate != 15 && ((header >>> 10) & 3) != 3;
        }
    }

    /**
     * The file of rewritten samples: created in a scratch folder and unlinked as it is opened
     * ({@link StandardOpenOption#DELETE_ON_CLOSE}), written through one buffer, read by the writer.
     */
    private static final class Samples {
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(SCRATCH_BUFFER_BYTES);
        private long size;

        private Samples(FileChannel channel) {
            this.channel = channel;
        }

        static Samples open(Path folder) throws IOException {
            Path file = Files.createTempFile(folder, "rondo-remux-", ".samples");
            try {
                return new Samples(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.DELETE_ON_CLOSE));
            } finally {
                Files.deleteIfExists(file);
            }
        }

        /** Appends {@code length} bytes of {@code bytes}; returns where they start. */
        long append(byte[] bytes, int length) throws IOException {
            long at = size;
            int done = 0;
            while (done < length) {
                if (!buffer.hasRemaining()) {
                    flush();
                }
                int n = Math.min(buffer.remaining(), length - done);
                buffer.put(bytes, done, n);
                done += n;
            }
            size += length;
            return at;
        }

        void flush() throws IOException {
            buffer.flip();
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            buffer.clear();
        }

        void close() throws IOException {
            channel.close();
        }
    }
}
