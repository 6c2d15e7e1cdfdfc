package io.rondo.content.media.flac;

import static io.rondo.content.media.IndexChecks.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.IndexChecks;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * FLAC as ffmpeg writes it is stored as fragmented MP4 ({@code fLaC} + {@code dfLa}) of one
 * fragment per round, which ffmpeg decodes to the very samples of the source: lossless stays lossless.
 */
class FlacRemuxerTest {

    @TempDir
    Path dir;

    static Stream<Arguments> encodings() {
        return Stream.of(
            Arguments.of("stereo.flac", List.of("-ac", "2", "-ar", "44100")),
            Arguments.of("hi-res.flac", List.of("-ac", "1", "-ar", "96000", "-sample_fmt", "s32")),
            Arguments.of("small-blocks.flac", List.of("-ac", "2", "-ar", "48000", "-frame_size", "1152")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("encodings")
    void isStoredAsFragmentedMp4OfOneFragmentPerRoundWithTheSameSamples(String name, List<String> options)
        throws IOException {
        Path source = make(name, options);
        Path stored = dir.resolve(name + ".mp4");

        MediaIndex index = store(source, stored);

        assertEquals("mp4", index.container());
        assertEquals("audio/mp4", index.mimeType());
        assertEquals("flac", index.codecs());
        assertEquals(4 * SECOND, index.durationNs(), SECOND / 1000, "lasts 4 s");
        assertEquals(4, index.fragments().size(), "one fragment per round");
        for (Fragment f : index.fragments()) {
            assertEquals(SECOND, f.durationNs(), 2 * SECOND / 1000, "a round each: " + f);
        }
        Ffmpeg.assertDecodesSilently(stored);
        assertEquals(decodedMd5(source), decodedMd5(stored), "the same samples, decoded");
        assertEquals(packetCount(source), packetCount(stored), "every frame");
    }

    @Test
    void anId3TagBeforeTheStreamIsLeftOut() throws IOException {
        Path plain = make("plain.flac", List.of());
        byte[] flac = Files.readAllBytes(plain);
        byte[] tag = {'I', 'D', '3', 4, 0, 0, 0, 0, 1, 0};
        byte[] tagged = new byte[tag.length + 128 + flac.length];
        System.arraycopy(tag, 0, tagged, 0, tag.length);
        System.arraycopy(flac, 0, tagged, tag.length + 128, flac.length);
        Path source = Files.write(dir.resolve("tagged.flac"), tagged);

        MediaIndex index = store(source, dir.resolve("tagged.mp4"));

        assertEquals("flac", index.codecs());
        assertEquals(decodedMd5(plain), decodedMd5(dir.resolve("tagged.mp4")));
    }

    @Test
    void aFileCutShortIsRefusedAsTruncated() throws IOException {
        byte[] flac = Files.readAllBytes(make("whole.flac", List.of()));
        Path cut = Files.write(dir.resolve("cut.flac"), Arrays.copyOf(flac, flac.length - 100));

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> MediaIndexers.prepare(cut, SECOND));

        assertTrue(e.getMessage().startsWith("truncated: "), e.getMessage());
    }

    @Test
    void flacInMp4IsStreamedToo() throws IOException {
        Path source = make("flac-in.mp4", List.of("-ac", "2", "-strict", "-2"));

        MediaIndex index = store(source, dir.resolve("flac-stored.mp4"));

        assertEquals("flac", index.codecs());
        assertEquals(decodedMd5(source), decodedMd5(dir.resolve("flac-stored.mp4")));
    }

    private Path make(String name, List<String> options) {
        Ffmpeg.assumeInstalled();
        Path source = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi",
            "-i", "sine=frequency=440:sample_rate=48000:duration=4"));
        command.addAll(options);
        command.addAll(List.of("-c:a", "flac", source.toString()));
        Ffmpeg.Run made = Ffmpeg.run(command.toArray(String[]::new));
        assumeTrue(made.exit() == 0, "ffmpeg cannot make " + name + ": " + made.err());
        return source;
    }

    private static MediaIndex store(Path source, Path stored) throws IOException {
        Preparation prepared = MediaIndexers.prepare(source, SECOND);
        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class, prepared, prepared::toString)
            .media()) {
            IndexChecks.assertWellFormed(media.index(), media.size());
            StoredFiles.write(media, stored);
            return media.index();
        }
    }

    private static String decodedMd5(Path file) {
        Ffmpeg.Run md5 = Ffmpeg.run("ffmpeg", "-v", "error", "-nostdin", "-i", file.toString(), "-map", "0:a", "-f",
            "md5", "-");
        assertEquals(0, md5.exit(), md5.err());
        return md5.out().strip();
    }

    private static long packetCount(Path file) {
        Ffmpeg.Run probe = Ffmpeg.run("ffprobe", "-v", "error", "-select_streams", "a", "-count_packets",
            "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", file.toString());
        assertEquals(0, probe.exit(), probe.err());
        return Long.parseLong(probe.out().strip());
    }
}
