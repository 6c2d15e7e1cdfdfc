package io.rondo.content.media;

import io.rondo.content.remux.MediaIndexers;
import static io.rondo.content.media.IndexChecks.clip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rondo.content.media.isobmff.SyntheticMp4;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MediaIndexersTest {

    @TempDir
    Path dir;

    @Test
    void aRoundMustLastSomeTime() {
        assertThrows(IllegalArgumentException.class, () -> MediaIndexers.prepare(clip("opus.webm"), 0));
    }

    @Test
    void probeKnowsMediaByContent() throws IOException {
        assertEquals("video/webm", MediaIndexers.probe(clip("vp8-vorbis.webm")));
        assertEquals("video/mp4", MediaIndexers.probe(clip("plain.mp4")));
        Path webmNamedTxt = dir.resolve("clip.txt");
        Files.copy(clip("opus.webm"), webmNamedTxt);
        assertEquals("video/webm", MediaIndexers.probe(webmNamedTxt));
    }

    static Stream<Arguments> files() {
        return Stream.of(
            Arguments.of("image.bin", SyntheticMp4.bytes(0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0),
                "image/png"),
            Arguments.of("photo", SyntheticMp4.bytes(0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'),
                "image/jpeg"),
            Arguments.of("anim.dat", text("GIF89a\u0001\u0000"), "image/gif"),
            Arguments.of("paper", text("%PDF-1.7\n"), "application/pdf"),
            Arguments.of("page", text("\n  <!DOCTYPE html><html></html>"), "text/html"),
            Arguments.of("page.htm", text("<html><body>hi</body></html>"), "text/html"),
            Arguments.of("logo", text("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
                "image/svg+xml"),
            Arguments.of("data.json", text("{\"a\": 1}"), "application/json"),
            Arguments.of("site.css", text("body { margin: 0 }"), "text/css"),
            Arguments.of("app.js", text("console.log(1)"), "text/javascript"),
            Arguments.of("readme", text("Just words.\n"), "text/plain"),
            Arguments.of("blob", SyntheticMp4.bytes(0, 1, 2, 3), "application/octet-stream"));
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("files")
    void probeKnowsCommonFilesByContentElseByExtension(String name, byte[] content, String mimeType)
        throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, content);

        assertEquals(mimeType, MediaIndexers.probe(file));
    }
}
