package io.rondo.content.media.ogg;

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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ogg Vorbis and Ogg Opus as ffmpeg writes them are stored as WebM of one Cluster per round,
 * holding the source's packets byte for byte, which ffmpeg decodes without a word and Rondo's own
 * WebM indexer reads back round for round; other Ogg codecs are discrete with a note.
 */
class OggWebmRemuxerTest {

    private static final String TONE = "sine=frequency=440:sample_rate=48000:duration=4";

    @TempDir
    Path dir;

    static Stream<Arguments> playable() {
        return Stream.of(
            Arguments.of("vorbis.ogg", List.of("-c:a", "libvorbis", "-ac", "2", "-ar", "44100"), "vorbis"),
            Arguments.of("vorbis-mono-22k.oga", List.of("-c:a", "libvorbis", "-ar", "22050", "-f", "ogg"), "vorbis"),
            Arguments.of("opus.opus", List.of("-c:a", "libopus", "-ac", "2"), "opus"),
            Arguments.of("opus-60ms.ogg", List.of("-c:a", "libopus", "-frame_duration", "60"), "opus"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("playable")
    void isStoredAsWebmOfOneClusterPerRoundWithTheSourcesPackets(String name, List<String> options, String codec)
        throws IOException {
        Path source = make(name, options);
        Path stored = dir.resolve(name + ".webm");

        MediaIndex index = store(source, stored);

        assertEquals("webm", index.container());
        assertEquals("audio/webm", index.mimeType());
        assertEquals(codec, index.codecs());
        assertEquals(4.0, index.durationNs() / (double) SECOND, 0.07, "lasts 4 s, give or take a packet");
        List<Fragment> fragments = index.fragments();
        long reached = (index.durationNs() + SECOND - 1) / SECOND;
        assertTrue(fragments.size() == reached || fragments.size() == reached - 1,
            "one fragment per round in which a packet starts: " + fragments);
        for (Fragment f : fragments.subList(0, fragments.size() - 1)) {
            assertEquals(SECOND, f.durationNs(), "a round each: " + f);
        }
        Ffmpeg.assertDecodesSilently(stored);
        assertEquals(codec, probe(stored, "stream=codec_name").get(0));
        assertEquals(probe(source, "packet=data_hash"), probe(stored, "packet=data_hash"),
            "every packet, byte for byte");
        try (StoredMedia again = assertInstanceOf(Preparation.Continuous.class, MediaIndexers.prepare(stored, SECOND))
            .media()) {
            List<Fragment> reread = again.index().fragments();
            assertEquals(index.fragments().size(), reread.size(), "Rondo reads the same rounds back");
            for (int i = 0; i < reread.size(); i++) {
                assertEquals(index.fragments().get(i).length(), reread.get(i).length(), "round " + i);
            }
        }
    }

    static Stream<Arguments> unplayable() {
        return Stream.of(
            Arguments.of("theora.ogv", List.of("-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=4",
                "-c:v", "libtheora", "-c:a", "libvorbis"), "Theora", "-c:v libvpx-vp9 -c:a libopus theora.webm"),
            Arguments.of("flac.oga", List.of("-c:a", "flac", "-f", "ogg"), "FLAC", "-c:a copy flac.flac"),
            Arguments.of("speex.spx", List.of("-c:a", "libspeex", "-ar", "16000", "-f", "ogg"), "Speex",
                "-vn -c:a libopus speex.webm"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unplayable")
    void otherCodecsAreDiscreteWithANote(String name, List<String> options, String codec, String command)
        throws IOException {
        Path source = make(name, options);

        String note = assertInstanceOf(Preparation.Discrete.class, MediaIndexers.prepare(source, SECOND)).note();

        assertTrue(note != null && note.contains(codec) && note.endsWith(command), note);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("playable")
    void aDamagedPageIsRefusedAsCorrupt(String name, List<String> options, String codec) throws IOException {
        byte[] ogg = Files.readAllBytes(make(name, options));
        ogg[ogg.length / 2] ^= 0x20;
        Path damaged = Files.write(dir.resolve("damaged-" + name), ogg);

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> MediaIndexers.prepare(damaged, SECOND));

        assertTrue(e.getMessage().startsWith("corrupt: the Ogg page at byte "), e.getMessage());
    }

    private Path make(String name, List<String> options) {
        Ffmpeg.assumeInstalled();
        Path source = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-v", "error", "-nostdin"));
        if (!options.contains("-i")) {
            command.addAll(List.of("-f", "lavfi", "-i", TONE));
            command.addAll(options);
        } else {
            int codecs = options.indexOf("-c:v");
            command.addAll(options.subList(0, codecs));
            command.addAll(List.of("-f", "lavfi", "-i", TONE));
            command.addAll(options.subList(codecs, options.size()));
        }
        command.add(source.toString());
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

    private static List<String> probe(Path file, String entries) {
        Ffmpeg.Run probe = Ffmpeg.run("ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", entries,
            "-show_data_hash", "MD5", "-of", "csv=p=0", file.toString());
        assertEquals(0, probe.exit(), probe.err());
        return Arrays.stream(probe.out().split("[\\s,]+")).filter(l -> !l.isBlank()).toList();
    }
}
