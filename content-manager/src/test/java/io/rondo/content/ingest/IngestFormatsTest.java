package io.rondo.content.ingest;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The files recorders, tuners and music libraries hold, as ffmpeg writes them, ingested: MPEG-TS,
 * FLAC and Ogg become continuous objects of one fragment per round; WAV and a TS of a codec
 * browsers do not play become discrete objects, with a note to the person ingesting.
 */
class IngestFormatsTest {

    private static final long ROUND_NS = 1_000_000_000L;
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T22:00:00Z"), ZoneOffset.UTC);
    private static final String VIDEO = "testsrc=size=160x120:rate=25:duration=3";
    private static final String TONE = "sine=frequency=440:sample_rate=48000:duration=3";

    @TempDir
    Path temp;

    static Stream<Arguments> streamed() {
        return Stream.of(
            Arguments.of("recording.ts", List.of("-f", "lavfi", "-i", VIDEO, "-f", "lavfi", "-i", TONE, "-c:v",
                "libx264", "-g", "25", "-c:a", "aac", "-f", "mpegts"), "video/mp4"),
            Arguments.of("song.flac", List.of("-f", "lavfi", "-i", TONE, "-c:a", "flac"), "audio/mp4"),
            Arguments.of("song.ogg", List.of("-f", "lavfi", "-i", TONE, "-c:a", "libvorbis"), "audio/webm"),
            Arguments.of("talk.opus", List.of("-f", "lavfi", "-i", TONE, "-c:a", "libopus"), "audio/webm"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streamed")
    void isAContinuousObjectOfOneFragmentPerRound(String name, List<String> encoding, String mimeType)
        throws Exception {
        Path source = make(name, encoding);
        List<String> notes = new ArrayList<>();

        MediaObject object = service().ingest(IngestRequest.of(source), copied -> { }, notes::add);

        assertEquals(Kind.CONTINUOUS, object.kind());
        assertEquals(mimeType, object.mimeType());
        List<Fragment> fragments = object.media().fragments();
        assertTrue(fragments.size() == 3 || fragments.size() == 4, "a fragment a second: " + fragments);
        assertEquals(List.of(), notes);
        assertNoTempFiles();
    }

    static Stream<Arguments> discrete() {
        return Stream.of(
            Arguments.of("tone.wav", List.of("-f", "lavfi", "-i", TONE, "-c:a", "pcm_s16le"), "audio/wav",
                "/tone.wav is stored as discrete data (downloadable, not streamed): the WAV file holds 16-bit PCM"
                    + " (1 channel, 48000 Hz), which browsers do not stream from WAV; to stream it losslessly as FLAC:"
                    + " ffmpeg -i tone.wav -c:a flac tone.flac"),
            Arguments.of("broadcast.ts", List.of("-f", "lavfi", "-i", VIDEO, "-f", "lavfi", "-i", TONE, "-c:v",
                "libx264", "-c:a", "ac3", "-f", "mpegts"), "video/mp2t",
                "/broadcast.ts is stored as discrete data (downloadable, not streamed): stream 0x0101 is AC-3 (Dolby"
                    + " Digital) (stream type 0x81), which browsers do not play from MP4 (Rondo streams H.264 and"
                    + " H.265 video with AAC or MP3 audio from MPEG-TS); make it streamable with:"
                    + " ffmpeg -i broadcast.ts -c:v copy -c:a aac broadcast.mp4"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("discrete")
    void isADiscreteObjectWithANote(String name, List<String> encoding, String mimeType, String note)
        throws Exception {
        Path source = make(name, encoding);
        List<String> notes = new ArrayList<>();

        MediaObject object = service().ingest(IngestRequest.of(source), copied -> { }, notes::add);

        assertEquals(Kind.DISCRETE, object.kind());
        assertEquals(mimeType, object.mimeType());
        assertNull(object.media());
        assertEquals(Files.size(source), object.size(), "stored whole");
        assertEquals(List.of(note), notes);
        assertNoTempFiles();
    }

    private IngestService service() throws IOException {
        List<StorageDisk> disks = List.of(new StorageDisk("d0", Files.createDirectories(temp.resolve("disk0"))),
            new StorageDisk("d1", Files.createDirectories(temp.resolve("disk1"))));
        return new IngestService(new ContentStore(new InMemoryCatalog(), disks), PlacementPolicy.STRIPED, ROUND_NS,
            CLOCK);
    }

    private Path make(String name, List<String> encoding) throws IOException, InterruptedException {
        Path source = Files.createDirectories(temp.resolve("in")).resolve(name);
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-v", "error", "-nostdin"));
        command.addAll(encoding);
        command.add(source.toString());
        Process ffmpeg;
        try {
            ffmpeg = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(temp.resolve("ffmpeg.log")
                .toFile()).start();
        } catch (IOException e) {
            if (Boolean.getBoolean("rondo.ffmpeg.required")) {
                throw new AssertionError("ffmpeg is required (rondo.ffmpeg.required) but cannot run", e);
            }
            return Assumptions.abort("ffmpeg is not installed: " + e.getMessage());
        }
        assertTrue(ffmpeg.waitFor(120, TimeUnit.SECONDS), "ffmpeg finished");
        assumeTrue(ffmpeg.exitValue() == 0, "ffmpeg cannot make " + name + ": "
            + Files.readString(temp.resolve("ffmpeg.log")));
        return source;
    }

    private void assertNoTempFiles() throws IOException {
        try (Stream<Path> files = Files.walk(temp)) {
            assertFalse(files.anyMatch(path -> path.toString().contains("/rondo/tmp/") && Files.isRegularFile(path)),
                "no ingest left a temp file, nor the TS remuxer its samples");
        }
    }
}
