package io.rondo.content.media.isobmff;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** ffmpeg and ffprobe, where installed, as the tests' independent judge of MP4 files. */
final class FfmpegRuns {

    /** What a program printed and how it ended. */
    record Run(int exit, String out, String err) {
    }

    private FfmpegRuns() {
    }

    /** The program on the PATH; skips the test, saying why, where it is not installed. */
    static Path require(String program) {
        Optional<Path> path = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .filter(dir -> !dir.isEmpty())
            .map(dir -> Path.of(dir, program))
            .filter(Files::isExecutable)
            .findFirst();
        String missing = program + " is not installed: install ffmpeg to check the stored media with it";
        if (Boolean.getBoolean("rondo.ffmpeg.required")) {
            assertTrue(path.isPresent(), missing + " (rondo.ffmpeg.required)");
        }
        assumeTrue(path.isPresent(), missing);
        return path.get();
    }

    static Run run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).start();
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
            try {
                return process.getErrorStream().readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " finished");
        return new Run(process.exitValue(), out, new String(err.join(), StandardCharsets.UTF_8));
    }

    /**
     * Every packet of the audio and video streams as ffprobe reads them, by stream in the file's
     * order of audio and video streams: {@code pts,dts,size,flags,MD5:hash} (the byte position, which
     * remuxing changes, left out).
     */
    static List<List<String>> packets(Path media) throws IOException, InterruptedException {
        Path ffprobe = require("ffprobe");
        Run streams = run(ffprobe.toString(), "-v", "error", "-show_entries", "stream=index,codec_type", "-of",
            "csv=p=0", media.toString());
        assertTrue(streams.exit() == 0 && streams.err().isBlank(), "ffprobe read " + media + ": " + streams.err());
        Map<Integer, Integer> playable = new TreeMap<>();
        for (String line : streams.out().strip().split("\\R")) {
            String[] f = line.split(",");
            if (f[1].equals("video") || f[1].equals("audio")) {
                playable.put(Integer.parseInt(f[0]), playable.size());
            }
        }
        List<List<String>> byStream = new ArrayList<>();
        playable.values().forEach(i -> byStream.add(new ArrayList<>()));
        Run packets = run(ffprobe.toString(), "-v", "error", "-show_entries",
            "packet=stream_index,pts,dts,flags,size,data_hash", "-show_data_hash", "MD5", "-of", "csv=p=0",
            media.toString());
        assertTrue(packets.exit() == 0 && packets.err().isBlank(), "ffprobe read " + media + ": " + packets.err());
        List<String> last = null;
        for (String line : packets.out().strip().split("\\R")) {
            int comma = line.indexOf(',');
            if (comma == 0 && last != null) {
                // a packet with side data (priming to skip) has its hash on a line of its own
                last.set(last.size() - 1, last.get(last.size() - 1) + line.substring(1));
                continue;
            }
            Integer stream = playable.get(Integer.parseInt(line.substring(0, comma)));
            last = stream == null ? null : byStream.get(stream);
            if (last != null) {
                String[] f = line.substring(comma + 1).split(",", -1);
                // the discard flag (D) marks a packet before an edit list's start in a progressive file,
                // not in a fragmented one: its timestamps say as much
                last.add(f[0] + "," + f[1] + "," + f[2] + "," + f[3].replace('D', '_') + "," + f[4]);
            }
        }
        return byStream;
    }

    /** The duration ffprobe gives the file, in seconds. */
    static double duration(Path media) throws IOException, InterruptedException {
        Run run = run(require("ffprobe").toString(), "-v", "error", "-show_entries", "format=duration", "-of",
            "csv=p=0", media.toString());
        assertTrue(run.exit() == 0 && run.err().isBlank(), "ffprobe read " + media + ": " + run.err());
        return Double.parseDouble(run.out().strip());
    }
}
