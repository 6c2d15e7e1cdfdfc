package io.rondo.server.cli.play;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the media goes: FILE only ever holds a whole stream, and a pipe whose reader left ends it. */
class MediaOutputTest {

    @TempDir
    Path temp;

    private final ByteArrayOutputStream standardOutput = new ByteArrayOutputStream();

    private MediaOutput open(String output) {
        return MediaOutput.open(output, new PrintStream(standardOutput, true, StandardCharsets.UTF_8));
    }

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aWholeStreamReplacesTheFileOnlyWhenItEnds() throws Exception {
        Path file = Files.writeString(temp.resolve("out.webm"), "an older recording");
        MediaOutput media = open(file.toString());

        media.write(bytes("init,"));
        media.write(bytes("fragment"));
        assertEquals("an older recording", Files.readString(file), "FILE is untouched while the stream runs");
        assertEquals("init,fragment", Files.readString(media.part()));
        media.finish();

        assertEquals("init,fragment", Files.readString(file));
        assertTrue(Files.notExists(temp.resolve("out.webm.part")), "FILE.part became FILE");
        assertEquals("; wrote " + file, media.where());
        assertEquals("", media.abandon(), "a finished stream is not abandoned after it");
        assertTrue(Files.exists(file));
    }

    @Test
    void aFailedStreamDeletesThePartialFileAndSaysHowMuchWentWithIt() throws Exception {
        MediaOutput media = open(temp.resolve("out.webm").toString());
        media.write(bytes("12345"));

        assertEquals("deleted " + media.part() + " (5 bytes, an incomplete stream)", media.abandon());
        assertTrue(Files.notExists(media.part()));
        assertTrue(Files.notExists(temp.resolve("out.webm")));
        assertEquals("", media.abandon(), "said once");
    }

    @Test
    void aStreamThatFailedBeforeAnyMediaDeletesThePartialFileQuietly() {
        MediaOutput media = open(temp.resolve("out.webm").toString());
        assertTrue(Files.exists(media.part()), "created at once, so a file that cannot be written is refused early");

        assertEquals("", media.abandon());
        assertTrue(Files.notExists(media.part()));
    }

    @Test
    void anInterruptedStreamKeepsWhatArrivedInThePartialFile() throws Exception {
        MediaOutput media = open(temp.resolve("out.webm").toString());
        media.write(bytes("init,frag"));

        assertEquals("; kept the 9 bytes that arrived in " + media.part(), media.keep());
        assertEquals("init,frag", Files.readString(media.part()));
        assertEquals("", media.abandon(), "what was kept stays kept");
        assertTrue(Files.exists(media.part()));
        assertTrue(Files.notExists(temp.resolve("out.webm")), "an interrupted stream is not the media");
    }

    @Test
    void anInterruptedStreamThatWroteNothingLeavesNoFile() {
        MediaOutput media = open(temp.resolve("out.webm").toString());

        assertEquals("", media.keep());
        assertTrue(Files.notExists(temp.resolve("out.webm.part")));
    }

    @Test
    void aFileThatCannotBeWrittenIsRefusedWithTheReason() {
        IllegalArgumentException folder = assertThrows(IllegalArgumentException.class,
            () -> open(temp.toString()));
        assertEquals("cannot write " + temp + ": it is a folder", folder.getMessage());

        Path missing = temp.resolve("no-such-folder").resolve("out.webm");
        IllegalArgumentException noFolder = assertThrows(IllegalArgumentException.class,
            () -> open(missing.toString()));
        assertEquals("cannot write " + missing + ": the folder " + missing.getParent() + " does not exist",
            noFolder.getMessage());
    }

    @Test
    void standardOutputGetsTheBytesAsTheyArrive() throws Exception {
        MediaOutput media = open("-");

        media.write(bytes("init,"));
        assertEquals("init,", standardOutput.toString(StandardCharsets.UTF_8), "unbuffered: a fragment is one write");
        media.write(bytes("fragment"));
        media.finish();

        assertEquals("init,fragment", standardOutput.toString(StandardCharsets.UTF_8));
        assertNull(media.part());
        assertEquals("", media.where());
        assertEquals("", media.abandon(), "nothing to delete");
    }

    @Test
    void aReaderOfStandardOutputThatLeftEndsTheStream() {
        OutputStream brokenPipe = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        MediaOutput media = MediaOutput.open("-", new PrintStream(brokenPipe, true, StandardCharsets.UTF_8));

        OutputException left = assertThrows(OutputException.class, () -> media.write(bytes("init,")));

        assertTrue(left.readerLeft(), "the reader left; the file did not fail");
        assertEquals("the reader of standard output left", left.getMessage());
        assertFalse(Files.exists(temp.resolve("-")), "no file named -");
    }
}
