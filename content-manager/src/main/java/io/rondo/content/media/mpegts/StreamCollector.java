package io.rondo.content.media.mpegts;

import io.rondo.content.media.FfmpegCommands;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.isobmff.FragmentedMp4Writer;
import io.rondo.content.media.isobmff.SampleTrack;
import io.rondo.content.media.mpegts.MpegTsDemuxer.Stream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/** Finds the program's streams, rewrites the kept ones' samples, and notes the ones that do not play. */
final class StreamCollector implements MpegTsDemuxer.Listener {

    private static final int H264 = 0x1B;
    private static final int HEVC = 0x24;
    private static final int AAC_ADTS = 0x0F;
    private static final int MPEG1_AUDIO = 0x03;
    private static final int MPEG2_AUDIO = 0x04;
    private static final int PRIVATE_PES = 0x06;
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
    private final SampleFile out;
    final Map<Integer, TsTrack> tracks = new LinkedHashMap<>();
    final List<String> unplayable = new ArrayList<>();
    List<Stream> program;
    /** Private streams without a descriptor (ffmpeg's AAC in .m2ts): AAC if their first PES packet is ADTS. */
    private final Set<Integer> probing = new HashSet<>();
    private boolean otherVideo;
    private boolean otherAudio;

    StreamCollector(SampleFile out) {
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
        TsTrack track = tracks.get(stream.pid());
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
        return data.remaining() >= AacTrack.ADTS_HEADER_BYTES && (data.get(data.position()) & 0xFF) == 0xFF
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
        for (TsTrack t : tracks.values()) {
            t.finish();
        }
    }

    /**
     * The note for a video stream of frames none of which a decoder can start at (no IDR or
     * recovery point, or no parameter sets before it), which would otherwise be dropped whole;
     * null if there is none.
     */
    String keyless(Path file) {
        for (TsTrack t : tracks.values()) {
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
        List<TsTrack> kept = new ArrayList<>();
        long base = Long.MAX_VALUE;
        for (TsTrack t : tracks.values()) {
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
