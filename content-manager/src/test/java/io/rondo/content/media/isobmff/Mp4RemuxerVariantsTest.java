package io.rondo.content.media.isobmff;

import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static io.rondo.content.media.IndexChecks.clip;
import static io.rondo.content.media.isobmff.RemuxChecks.assertOneMoofAndMdatPerFragment;
import static io.rondo.content.media.isobmff.RemuxChecks.assertOneRoundEach;
import static io.rondo.content.media.isobmff.RemuxChecks.assertSamplesIdentical;
import static io.rondo.content.media.isobmff.RemuxChecks.store;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.model.MediaIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What other muxers and encoders write, made by ffmpeg from the committed clips (or encoded) when
 * the test runs, so it needs ffmpeg and is skipped, saying so, where it is not installed. Each is
 * stored one round per fragment with the source's samples, as ffprobe and ffmpeg confirm.
 */
class Mp4RemuxerVariantsTest {

    private static final String GOP250 = "h264-aac-gop250.mp4";
    private static final String TESTSRC = "testsrc=size=160x120:rate=25:duration=3";

    @TempDir
    Path dir;

    /**
     * A variant: what it shows, the clip it comes from (or none), ffmpeg's options, its codecs, and
     * whether ffprobe's times for it are shifted against the stored copy's. ffmpeg shows a progressive
     * file with negative composition offsets with its decode times moved back by the least offset,
     * and the same samples in a fragmented file with their presentation times moved forward by it
     * (it cannot know the least offset of fragments it has not read): the same presentation, and the
     * same timestamps once rebased on the first packet.
     */
    static Stream<Arguments> variants() {
        String h264Aac = "avc1.64000B, mp4a.40.2";
        return Stream.of(
            Arguments.of("fragments with an explicit base data offset", GOP250,
                "-c copy -movflags +frag_keyframe+empty_moov", h264Aac, false),
            Arguments.of("a moof per track", GOP250,
                "-c copy -movflags +frag_keyframe+empty_moov+default_base_moof+separate_moof", h264Aac, false),
            Arguments.of("0.7 s fragments, cut between keyframes", GOP250,
                "-c copy -frag_duration 700000 -movflags +empty_moov+default_base_moof", h264Aac, false),
            Arguments.of("negative composition offsets (ctts version 1)", GOP250,
                "-c copy -movflags +negative_cts_offsets", h264Aac, true),
            Arguments.of("negative composition offsets (trun version 1)", GOP250,
                "-c copy -movflags +negative_cts_offsets+frag_keyframe+empty_moov+default_base_moof", h264Aac, false),
            Arguments.of("audio delayed by an empty edit", GOP250,
                "-itsoffset 1.5 -i " + clip("aac.m4a") + " -map 0:v -map 1:a -c copy", h264Aac, false),
            Arguments.of("QuickTime .mp3 audio", GOP250,
                "-i " + clip("mp3.mp4") + " -map 0:v -map 1:a -c copy -f mov", "avc1.64000B, mp3", false),
            Arguments.of("H.265", "", "-f lavfi -i " + TESTSRC + " -c:v libx265 -preset ultrafast -tag:v hvc1"
                + " -x265-params log-level=none -pix_fmt yuv420p", "hvc1.1.6.L30.90", false),
            Arguments.of("VP9", "", "-f lavfi -i " + TESTSRC + " -c:v libvpx-vp9 -deadline realtime -cpu-used 8"
                + " -b:v 50k -g 25 -pix_fmt yuv420p", "vp09.00.10.08", false),
            Arguments.of("AV1", "", "-f lavfi -i " + TESTSRC + " -c:v libsvtav1 -preset 12 -g 25 -pix_fmt yuv420p",
                "av01.0.00M.08", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void isStoredOneRoundPerFragmentWithTheSourcesSamples(String what, String from, String options, String codecs,
                                                          boolean shifted) throws Exception {
        Path source = dir.resolve("source.mp4");
        List<String> command = new ArrayList<>(List.of(FfmpegRuns.require("ffmpeg").toString(), "-v", "error", "-y"));
        if (!from.isEmpty()) {
            command.addAll(List.of("-i", clip(from).toString()));
        }
        command.addAll(List.of(options.split(" ")));
        command.add(source.toString());
        FfmpegRuns.Run made = FfmpegRuns.run(command.toArray(new String[0]));
        assertEquals(0, made.exit(), "ffmpeg made the " + what + ": " + made.err());
        Path stored = dir.resolve("stored.mp4");

        MediaIndex index = store(source, SECOND, stored);

        assertWellFormed(index, Files.size(stored));
        assertEquals(codecs, index.codecs());
        assertOneRoundEach(index, stored, SECOND);
        assertOneMoofAndMdatPerFragment(index, stored);
        assertSamplesIdentical(source, stored);
        assertEquals(rebased(FfmpegRuns.packets(source), shifted), rebased(FfmpegRuns.packets(stored), shifted),
            "ffprobe reads the same packets");
        assertEquals(new FfmpegRuns.Run(0, "", ""), FfmpegRuns.run(FfmpegRuns.require("ffmpeg").toString(), "-v",
            "error", "-i",
            stored.toString(), "-f", "null", "-"), "ffmpeg decodes the stored copy");
        double frames = shifted ? 2 : 1;
        assertTrue(Math.abs(FfmpegRuns.duration(source) - FfmpegRuns.duration(stored)) <= frames * 0.04 + 1e-6,
            "the duration within one frame (and the frame ffmpeg shifts by)");
    }

    /** The packets with their pts and dts counted from each stream's first pts, if {@code rebase}. */
    private static List<List<String>> rebased(List<List<String>> streams, boolean rebase) {
        if (!rebase) {
            return streams;
        }
        List<List<String>> rebased = new ArrayList<>();
        for (List<String> packets : streams) {
            long first = Long.parseLong(packets.get(0).split(",")[0]);
            List<String> lines = new ArrayList<>();
            for (String packet : packets) {
                String[] f = packet.split(",", 3);
                lines.add((Long.parseLong(f[0]) - first) + "," + (Long.parseLong(f[1]) - first) + "," + f[2]);
            }
            rebased.add(lines);
        }
        return rebased;
    }
}
