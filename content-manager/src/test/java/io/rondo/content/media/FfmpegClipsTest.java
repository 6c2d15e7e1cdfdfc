package io.rondo.content.media;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Clips that ffmpeg made (src/test/resources/media/README.md has the commands): 4 s each, a keyframe
 * every second, WebM clusters and MP4 fragments of about one second.
 */
class FfmpegClipsTest {

    private static final long CLIP_NS = 4 * SECOND;
    private static final long FRAME_NS = 40 * MS;
    private static final long KEYFRAME_INTERVAL_NS = SECOND;
    private static final byte[] CLUSTER_ID = {0x1F, 0x43, (byte) 0xB6, 0x75};

    static Path clip(String name) {
        try {
            return Path.of(FfmpegClipsTest.class.getResource("/media/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<Arguments> clips() {
        return Stream.of(
            Arguments.of("vp8-vorbis.webm", "webm", "video/webm", "vp8, vorbis", 4),
            Arguments.of("vp9-opus.webm", "webm", "video/webm", "vp9, opus", 4),
            Arguments.of("opus.webm", "webm", "audio/webm", "opus", 4),
            Arguments.of("h264-aac-frag.mp4", "mp4", "video/mp4", "avc1.64000B, mp4a.40.2", 4),
            Arguments.of("aac-frag.mp4", "mp4", "audio/mp4", "mp4a.40.2", 4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void indexesTheClipIntoFragmentsOfAboutOneRound(String name, String container, String mimeType, String codecs,
                                                   int fragmentCount) throws IOException {
        Path file = clip(name);

        MediaIndex index = MediaIndexers.index(file, SECOND).orElseThrow();

        assertWellFormed(index, Files.size(file));
        assertEquals(container, index.container());
        assertEquals(mimeType, index.mimeType());
        assertEquals(codecs, index.codecs());
        assertTrue(Math.abs(index.durationNs() - CLIP_NS) <= FRAME_NS, "a 4 s clip, was " + index.durationNs());
        long sum = index.fragments().stream().mapToLong(Fragment::durationNs).sum();
        assertTrue(Math.abs(sum - index.durationNs()) <= FRAME_NS, "durations add up to " + sum);
        assertEquals(fragmentCount, index.fragments().size(), index.fragments().toString());
        List<Fragment> fragments = index.fragments();
        for (int i = 0; i < fragments.size(); i++) {
            long d = fragments.get(i).durationNs();
            boolean last = i == fragments.size() - 1;
            assertTrue(d <= SECOND + KEYFRAME_INTERVAL_NS && (last || d >= SECOND - SECOND / 20),
                "fragment " + i + " plays about a second: " + d + " ns");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void everyFragmentStartsWithAClusterOrAMoof(String name, String container) throws IOException {
        Path file = clip(name);
        byte[] bytes = Files.readAllBytes(file);

        MediaIndex index = MediaIndexers.index(file, SECOND).orElseThrow();

        for (Fragment f : index.fragments()) {
            int at = (int) f.offset();
            if (container.equals("webm")) {
                assertEquals(List.of(CLUSTER_ID[0], CLUSTER_ID[1], CLUSTER_ID[2], CLUSTER_ID[3]),
                    List.of(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]), "a Cluster at " + at);
            } else {
                assertEquals("moof", new String(bytes, at + 4, 4, StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void aCodecsStringTellsH264ProfileAndLevelInHex() throws IOException {
        String codecs = MediaIndexers.index(clip("h264-aac-frag.mp4"), SECOND).orElseThrow().codecs();

        assertTrue(codecs.matches("avc1\\.[0-9A-F]{6}, mp4a\\.40\\.2"), codecs);
    }

    @Test
    void aProgressiveMp4IsNotIndexed() throws IOException {
        assertEquals(Optional.empty(), MediaIndexers.index(clip("plain.mp4"), SECOND));
    }

    @Test
    void aTextFileIsNotIndexed(@TempDir Path dir) throws IOException {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "A round is one second long.\n");

        assertEquals(Optional.empty(), MediaIndexers.index(text, SECOND));
    }

    @Test
    void longerRoundsMakeFewerLongerFragments() throws IOException {
        MediaIndex index = MediaIndexers.index(clip("vp9-opus.webm"), 2 * SECOND).orElseThrow();

        assertWellFormed(index, Files.size(clip("vp9-opus.webm")));
        assertEquals(2, index.fragments().size());
    }
}
