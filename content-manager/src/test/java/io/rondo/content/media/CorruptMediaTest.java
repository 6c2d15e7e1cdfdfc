package io.rondo.content.media;

import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static io.rondo.content.media.IndexChecks.clip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.matroska.SyntheticWebm;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Broken files: each is either not media (empty) or a MediaFormatException that says what and where. */
class CorruptMediaTest {

    @TempDir
    Path dir;

    private Optional<MediaIndex> index(String name, byte[] bytes) throws IOException {
        return IndexChecks.index(dir, name, bytes, SECOND);
    }

    private MediaFormatException failure(String name, byte[] bytes) {
        return assertThrows(MediaFormatException.class, () -> index(name, bytes));
    }

    private static byte[] bytes(String clip) throws IOException {
        return Files.readAllBytes(clip(clip));
    }

    @Test
    void anEmptyFileIsNotMedia() throws IOException {
        assertEquals(Optional.empty(), index("empty.webm", new byte[0]));
    }

    @Test
    void garbageIsNotMedia() throws IOException {
        byte[] garbage = new byte[4096];
        new Random(42).nextBytes(garbage);

        assertEquals(Optional.empty(), index("garbage.mp4", garbage));
    }

    @Test
    void aWebmTruncatedInTheMiddleOfAClusterNamesTheCluster() throws IOException {
        byte[] cut = Arrays.copyOf(bytes("vp8-vorbis.webm"), 25_000);

        assertEquals("truncated: the Cluster at byte 18663 claims 14127 bytes but the file ends at 25000",
            failure("cut.webm", cut).getMessage());
    }

    @Test
    void aWebmTruncatedInsideItsHeaderNamesTheElement() throws IOException {
        byte[] webm = bytes("vp8-vorbis.webm");

        assertEquals("truncated: the Tracks at byte 264 claims 3635 bytes but the file ends at 1000",
            failure("cut.webm", Arrays.copyOf(webm, 1000)).getMessage());
        assertEquals("truncated: the EBML header at byte 0 claims 31 bytes but the file ends at 20",
            failure("cut.webm", Arrays.copyOf(webm, 20)).getMessage());
        assertEquals("truncated: the file ends at byte 4 inside the header of the element at byte 0",
            failure("cut.webm", Arrays.copyOf(webm, 4)).getMessage());
        assertEquals("truncated: the file ends at byte 36, after the EBML header and before any Segment",
            failure("cut.webm", Arrays.copyOf(webm, 36)).getMessage());
    }

    @Test
    void aLiveWebmTruncatedInsideABlockNamesTheBlock() throws IOException {
        SyntheticWebm.Written live = new SyntheticWebm().unknownSizes().clusters(3, 0, 1000, 25, 100).write();
        long lastCluster = live.clusterOffsets().get(2);
        byte[] cut = Arrays.copyOf(live.bytes(), (int) lastCluster + 200);

        String message = failure("live.webm", cut).getMessage();

        assertTrue(message.matches("truncated: the SimpleBlock at byte \\d+ claims 104 bytes but the file ends at "
            + (lastCluster + 200)), message);
    }

    @Test
    void anFmp4BoxClaimingMoreThanTheFileHoldsIsTruncated() throws IOException {
        byte[] mp4 = bytes("h264-aac-frag.mp4");
        ByteBuffer.wrap(mp4).putInt(12180, 1_000_000);

        assertEquals("truncated: the moof at byte 12180 claims 1000000 bytes but the file ends at " + mp4.length,
            failure("big.mp4", mp4).getMessage());
    }

    @Test
    void anFmp4TruncatedInsideAnMdatNamesTheMdat() throws IOException {
        byte[] cut = Arrays.copyOf(bytes("h264-aac-frag.mp4"), 30_000);

        assertEquals("truncated: sample 63 of track 1 (316 bytes at byte 29783) lies past the end of the file at 30000",
            failure("cut.mp4", cut).getMessage());
    }

    @Test
    void contentDecidesTheContainerNotTheName() throws IOException {
        assertEquals("webm", index("really-webm.mp4", bytes("vp8-vorbis.webm")).orElseThrow().container());
        assertEquals("mp4", index("really-mp4.webm", bytes("h264-aac-frag.mp4")).orElseThrow().container());
        assertEquals(Optional.empty(), index("really-text.webm", "WEBM".getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Every clip cut at many lengths and with random bytes changed: the indexer answers with an index
     * that is well formed, with nothing, or with a MediaFormatException, never another exception, and
     * quickly.
     */
    @ParameterizedTest
    @ValueSource(strings = {"vp8-vorbis.webm", "vp9-opus.webm", "opus.webm", "h264-aac-frag.mp4", "aac-frag.mp4",
        "plain.mp4"})
    void survivesTruncationAndCorruptionAnywhere(String name) throws IOException {
        byte[] original = bytes(name);
        Random random = new Random(name.hashCode());
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            for (int length = 0; length < original.length; length += 1 + random.nextInt(150)) {
                check(Arrays.copyOf(original, length));
            }
            for (int i = 0; i < 300; i++) {
                byte[] changed = original.clone();
                int changes = 1 + random.nextInt(4);
                for (int j = 0; j < changes; j++) {
                    int at = random.nextInt(Math.min(changed.length, random.nextBoolean() ? 5000 : changed.length));
                    changed[at] = (byte) random.nextInt(256);
                }
                check(changed);
            }
        });
    }

    private void check(byte[] bytes) throws IOException {
        try {
            Optional<MediaIndex> index = index("fuzz", bytes);
            index.ifPresent(i -> assertWellFormed(i, i.fragments().get(i.fragments().size() - 1).range().end()));
        } catch (MediaFormatException e) {
            assertTrue(e.getMessage().matches("(truncated|corrupt|unsupported): .+"), e.getMessage());
        }
    }
}
