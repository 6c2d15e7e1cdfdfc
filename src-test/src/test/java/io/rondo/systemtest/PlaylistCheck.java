package io.rondo.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * An HLS playlist validated by Python's m3u8 package, as {@code check_playlist.py} beside this
 * class does it: strict parsing, then every tag m3u8 knows checked against RFC 8216 and its
 * second edition, with the verdict and what was read as JSON. The Python is a venv's with m3u8
 * installed ({@code -Drondo.m3u8.python=VENV/bin/python}, as {@code .ci/run} passes), else
 * {@code python3} on the PATH if it has m3u8; without one the check is skipped, saying so, unless
 * {@code rondo.m3u8.required} is set.
 */
final class PlaylistCheck {

    /** The m3u8 release {@code .ci/run} installs, whose model the checker reads. */
    static final String VERSION = "6.0.0";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path python;
    private final Path script;

    private PlaylistCheck(Path python, Path script) {
        this.python = python;
        this.script = script;
    }

    /**
     * The checker, its script copied into {@code temp}; empty (after saying why) where no Python
     * with m3u8 is installed, and a failure then if {@code rondo.m3u8.required} is set.
     */
    static Optional<PlaylistCheck> find(Path temp) throws IOException, InterruptedException {
        Optional<Path> python = Optional.ofNullable(System.getProperty("rondo.m3u8.python")).map(Path::of)
            .filter(Files::isExecutable).or(() -> RondoUnderTest.onPath("python3"));
        String missing = "Python's m3u8 is not installed: make a venv with it (python3 -m venv DIR; "
            + "DIR/bin/pip install m3u8==" + VERSION + ") and pass -Drondo.m3u8.python=DIR/bin/python (.ci/run "
            + "does) to validate the HLS playlists";
        if (python.isPresent() && !hasM3u8(python.get())) {
            python = Optional.empty();
        }
        if (python.isEmpty()) {
            if (Boolean.getBoolean("rondo.m3u8.required")) {
                fail(missing);
            }
            System.out.println("PlaylistCheck: skipped: " + missing);
            return Optional.empty();
        }
        Path script = temp.resolve("check_playlist.py");
        try (InputStream in = PlaylistCheck.class.getResourceAsStream("check_playlist.py")) {
            Files.copy(in, script);
        }
        return Optional.of(new PlaylistCheck(python.get(), script));
    }

    /**
     * What the checker read of {@code playlist}, asserting it found nothing wrong.
     *
     * @param objectBytes the size of the object its byte ranges address; 0 while it grows
     */
    JsonNode valid(String playlist, long objectBytes) throws IOException, InterruptedException {
        JsonNode report = check(playlist, objectBytes);
        assertEquals(0, report.path("errors").size(), "m3u8 finds the playlist invalid: " + report.path("errors")
            + "\n" + playlist);
        return report;
    }

    /** What the checker read of {@code playlist}, with its {@code errors}. */
    JsonNode check(String playlist, long objectBytes) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(python.toString(), script.toString(), Long.toString(objectBytes))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(playlist.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "check_playlist.py finished");
        assertEquals(0, process.exitValue(), "check_playlist.py ran: " + out);
        return JSON.readTree(out);
    }

    private static boolean hasM3u8(Path python) {
        try {
            Process probe = new ProcessBuilder(python.toString(), "-c", "import m3u8")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
