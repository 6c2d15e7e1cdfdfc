package io.rondo.content.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * ffmpeg and ffprobe, where installed: a second demuxer and a decoder to hold a remuxer's output
 * against. Tests that need them are skipped, saying so, on a machine without them.
 */
public final class Ffmpeg {

    private static final long TIMEOUT_S = 120;
    private static Boolean installed;

    /** What a command printed and how it ended. */
    public record Run(int exit, String out, String err) { }

    private Ffmpeg() {
    }

    static synchronized boolean installed() {
        if (installed == null) {
            try {
                installed = run("ffprobe", "-version").exit() == 0 && run("ffmpeg", "-version").exit() == 0;
            } catch (UncheckedIOException e) {
                installed = false;
            }
        }
        return installed;
    }

    /** Skips the calling test, saying why, where ffmpeg and ffprobe are not installed. */
    public static void assumeInstalled() {
        assumeTrue(installed(), "ffmpeg and ffprobe are not installed: the check against them is skipped");
    }

    public static Run run(String... command) {
        try {
            Process p = new ProcessBuilder(command).start();
            p.getOutputStream().close();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " ran longer than " + TIMEOUT_S + " s");
            }
            return new Run(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every packet ffprobe demuxes from {@code file}, by stream: {@code pts size flags MD5} of each,
     * in order, so that two files holding the same packets give equal maps.
     */
    public static Map<Integer, List<String>> packets(Path file) throws IOException {
        Map<Integer, List<String>> byStream = new TreeMap<>();
        for (JsonNode p : probePackets(file)) {
            byStream.computeIfAbsent(p.get("stream_index").asInt(), s -> new ArrayList<>()).add(p.path("pts").asText()
                + " " + p.path("size").asText() + " " + p.path("flags").asText() + " " + p.path("data_hash").asText());
        }
        return byStream;
    }

    /** When the last packet of {@code file} stops playing, in seconds: its decoded length. */
    public static double endSeconds(Path file) throws IOException {
        double end = 0;
        for (JsonNode p : probePackets(file)) {
            end = Math.max(end, p.path("pts_time").asDouble() + p.path("duration_time").asDouble());
        }
        return end;
    }

    private static JsonNode probePackets(Path file) throws IOException {
        Run probe = run("ffprobe", "-v", "error", "-show_entries",
            "packet=stream_index,pts,pts_time,duration_time,size,flags,data_hash", "-show_data_hash", "MD5",
            "-of", "json", file.toString());
        assertEquals(0, probe.exit(), "ffprobe " + file + ": " + probe.err());
        return new ObjectMapper().readTree(probe.out()).path("packets");
    }

    /** Decodes every stream of {@code file} and asserts that ffmpeg had nothing to say. */
    public static void assertDecodesSilently(Path file) {
        Run decode = run("ffmpeg", "-v", "error", "-nostdin", "-i", file.toString(), "-f", "null", "-");
        assertEquals(0, decode.exit(), "ffmpeg decoding " + file + " failed: " + decode.err());
        assertEquals("", decode.err(), "ffmpeg decoding " + file + " complained");
    }
}
