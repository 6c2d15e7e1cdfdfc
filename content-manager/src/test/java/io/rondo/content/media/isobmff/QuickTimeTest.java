package io.rondo.content.media.isobmff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.Listings;
import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * QuickTime files as ffmpeg writes them ({@code -f mov}: brand {@code qt  }, AAC in a version 1
 * sound description with its esds inside a {@code wave} atom; version 2 for 96 kHz; a timecode
 * track as cameras write) are continuous objects: a fragmented MP4 whose audio entry is the ISO
 * one a browser reads, holding the source's packets, that ffmpeg decodes without a word.
 */
class QuickTimeTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    static Path dir;

    static Stream<Arguments> movs() {
        return Stream.of(
            Arguments.of("plain.mov", 48000, List.<String>of()),
            Arguments.of("96khz.mov", 96000, List.<String>of()),
            Arguments.of("timecode.mov", 44100, List.of("-timecode", "10:00:00:00")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("movs")
    void aMovIsStoredAsAFragmentedMp4ABrowserPlays(String name, int rate, List<String> options) throws IOException {
        Path source = mov(name, rate, options);
        assertEquals("video/quicktime", MediaIndexers.probe(source));

        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class,
            MediaIndexers.prepare(source, SECOND)).media()) {
            Path stored = StoredFiles.write(media, dir.resolve("stored-" + name + ".mp4"));
            MediaIndex index = media.index();

            assertEquals("video/mp4", index.mimeType());
            assertTrue(index.codecs().matches("avc1\\.[0-9A-F]{6}, mp4a\\.40\\.2"), index.codecs());
            assertEquals(4 * SECOND, index.durationNs(), 50_000_000);
            assertEquals(4, index.fragments().size());
            ByteBuffer init = ByteBuffer.wrap(Files.readAllBytes(stored), 0, (int) index.init().length());
            int mp4a = indexOf(init, "mp4a");
            assertEquals(0, init.getShort(mp4a + 16), "a version 0 sound entry");
            assertEquals(rate <= 0xFFFF ? rate : 0, init.getInt(mp4a + 32) >>> 16,
                "its sample rate, where 16 bits hold it");
            assertEquals("esds", IsoBoxes.fourcc(init, mp4a + 40), "with its esds as a child");

            Ffmpeg.assertDecodesSilently(stored);
            Map<Integer, List<String>> sourcePackets = new TreeMap<>();
            // ffprobe flags the priming a progressive file's edit list skips as discarded (D)
            Ffmpeg.packets(source).forEach((stream, packets) -> {
                if (stream <= 1) {
                    sourcePackets.put(stream, packets.stream().map(p -> p.replace("KD ", "K_ ")).toList());
                }
            });
            Listings.assertSame(sourcePackets, Ffmpeg.packets(stored), "packet");
        }
    }

    private static Path mov(String name, int rate, List<String> options) {
        Ffmpeg.assumeInstalled();
        Path mov = dir.resolve(name);
        Ffmpeg.Run make = Ffmpeg.run(Stream.of(List.of("ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
            "testsrc=size=160x120:rate=25:duration=4", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=" + rate + ":duration=4", "-c:v", "libx264", "-c:a", "aac"), options,
            List.of("-f", "mov", mov.toString())).flatMap(List::stream).toArray(String[]::new));
        assertEquals(0, make.exit(), make.err());
        return mov;
    }

    private static int indexOf(ByteBuffer bytes, String fourcc) {
        for (int i = 0; i + 4 <= bytes.limit(); i++) {
            if (IsoBoxes.fourcc(bytes, i).equals(fourcc)) {
                return i - 4;
            }
        }
        throw new AssertionError("no " + fourcc + " in the init segment");
    }
}
