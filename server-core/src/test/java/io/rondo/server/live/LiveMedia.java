package io.rondo.server.live;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Live media as encoders write it, made by ffmpeg; tests that need it are skipped where ffmpeg is missing. */
public final class LiveMedia {

    private LiveMedia() {
    }

    /** Skips the calling test where ffmpeg is not installed, unless {@code -Drondo.ffmpeg.required=true}. */
    public static void assumeFfmpeg() {
        boolean installed;
        try {
            installed = run("ffmpeg", "-version").length > 0;
        } catch (UncheckedIOException | IllegalStateException e) {
            installed = false;
        }
        if (!installed && Boolean.getBoolean("rondo.ffmpeg.required")) {
            throw new IllegalStateException("ffmpeg is required (-Drondo.ffmpeg.required=true) and not installed");
        }
        assumeTrue(installed, "ffmpeg is not installed: the live recording tests are skipped");
    }

    /**
     * {@code seconds} of a test picture and a tone, H.264 with a keyframe every {@code gop} frames
     * (25 a second) and AAC, as live fragmented MP4 the way ffmpeg writes it to a pipe.
     */
    public static byte[] fragmentedMp4(int seconds, int gop) {
        return run("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
            "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", String.valueOf(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-g", String.valueOf(gop),
            "-c:a", "aac", "-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-");
    }

    /**
     * ffprobe's packets of {@code file}, stream by stream (how streams interleave is the muxer's
     * choice): stream, size and flags of each, in each stream's order; what a recording must keep.
     */
    static List<String> packets(Path file) {
        String out = new String(run("ffprobe", "-v", "error", "-show_entries", "packet=stream_index,size,flags",
            "-of", "csv=p=0", file.toString()));
        List<String> packets = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                packets.add(line.trim());
            }
        }
        packets.sort(Comparator.comparing(packet -> packet.substring(0, packet.indexOf(','))));
        return packets;
    }

    /** What {@code command} (ffmpeg, ffprobe) writes to its output; it must end well within 120 s. */
    public static byte[] run(String... command) {
        try {
            Process process = new ProcessBuilder(command).start();
            process.getOutputStream().close();
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " ran for over 120 s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + new String(err.join()));
            }
            return out.join();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in; ByteArrayOutputStream bytes = new ByteArrayOutputStream()) {
            in.transferTo(bytes);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
