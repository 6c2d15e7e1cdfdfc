package io.rondo.content.remux;

import static io.rondo.content.media.IndexChecks.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.Preparation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** WAV files as ffmpeg writes them are discrete, with a note naming what they hold and the command that streams it. */
class WaveFilesTest {

    @TempDir
    Path dir;

    static Stream<Arguments> waves() {
        return Stream.of(
            Arguments.of("pcm_s16le", "-ac 2", "the WAV file holds 16-bit PCM (2 channels, 44100 Hz), which browsers"
                + " do not stream from WAV; to stream it losslessly as FLAC: ffmpeg -i tone.wav -c:a flac tone.flac"),
            Arguments.of("pcm_f32le", "-ac 1", "the WAV file holds 32-bit floating-point PCM (1 channel, 44100 Hz),"
                + " which browsers do not stream from WAV; to stream it losslessly as FLAC:"
                + " ffmpeg -i tone.wav -c:a flac tone.flac"),
            Arguments.of("libmp3lame", "-ac 1", "the WAV file holds MP3 (1 channel, 44100 Hz), which browsers do not"
                + " stream from WAV; to stream it, copy it out: ffmpeg -i tone.wav -c:a copy tone.mp3"),
            Arguments.of("pcm_alaw", "-ac 1 -ar 8000", "the WAV file holds G.711 A-law (1 channel, 8000 Hz), which"
                + " browsers do not stream from WAV; to stream it: ffmpeg -i tone.wav -c:a libopus tone.webm"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("waves")
    void isDiscreteWithANoteNamingItsCodecAndTheCommand(String codec, String options, String note)
        throws IOException {
        Ffmpeg.assumeInstalled();
        Path wav = dir.resolve("tone.wav");
        String[] command = ("ffmpeg -v error -nostdin -f lavfi -i sine=sample_rate=44100:duration=2 " + options
            + " -c:a " + codec + " -f wav " + wav).split(" ");
        Ffmpeg.Run made = Ffmpeg.run(command);
        assumeTrue(made.exit() == 0, "ffmpeg cannot make a WAV of " + codec + ": " + made.err());

        Preparation prepared = MediaIndexers.prepare(wav, SECOND);

        assertEquals(note, assertInstanceOf(Preparation.Discrete.class, prepared).note());
    }
}
