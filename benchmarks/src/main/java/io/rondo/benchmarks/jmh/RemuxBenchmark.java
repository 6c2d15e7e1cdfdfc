package io.rondo.benchmarks.jmh;

import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.ingest.BackgroundDigest;
import io.rondo.content.ingest.DirectFileWriter;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * How fast ingest remuxes a film (papers/001 Section 1.1: one fragment per round): each operation
 * plans a {@code container} of {@code seconds} at about 5 Mbit/s, as ffmpeg writes it, and writes
 * the stored copy. Throughput is the source's size (printed at setup) over the score; target: at
 * least 0.8 of the disk's sequential write speed,
 * {@code dd if=/dev/zero of=DIR/x bs=1M count=4096 oflag=direct}.
 *
 * <p>{@code container} is what ingest is handed:
 * <ul>
 *   <li>{@code mp4}: a progressive H.264 + AAC MP4 (moov at the end, a chunk per frame,
 *       interleaved), planned from its sample tables;
 *   <li>{@code fragmented-mp4}: the same as a fragmented MP4 (a moof per keyframe), planned from its
 *       moofs' run tables;
 *   <li>{@code webm}: VP8 + Opus in WebM, planned from its Clusters' block headers.
 * </ul>
 *
 * <p>{@code output} is where the stored copy goes:
 * <ul>
 *   <li>{@code plan}: nowhere: the planning alone, which reads the headers and tables, not the payload;
 *   <li>{@code buffered}: hashed (SHA-256, for the ETag) and written to a file through the page
 *       cache, forced at the end, as ingest wrote before {@link DirectFileWriter};
 *   <li>{@code ingest}: hashed on a thread of its own ({@link BackgroundDigest}) and written with a
 *       {@link DirectFileWriter} as ingest writes now:
 *       O_DIRECT from two aligned buffers ({@link DirectFileWriter#DEFAULT_BUFFER_BYTES} each), a
 *       full one written by the writer's thread while the remux fills the other, then forced;
 *   <li>{@code direct}: the same {@link DirectFileWriter} without the hash, the writer alone;
 *   <li>{@code discard}: nowhere, which measures the remux alone: the planning and the reads.
 * </ul>
 *
 * <p>The source is made at setup with ffmpeg (which must be on the PATH): 4 s of 1280x720 video
 * (libx264 with B-frames, or libvpx) at about 5 Mbit/s with audio (AAC or Opus), stream-copied in
 * a loop to {@code seconds}, in {@code -Drondo.bench.dir} (default: the temporary folder), and
 * deleted at teardown with the stored copy. The default runs in seconds for CI's smoke run; a film
 * is {@code -p seconds=7200}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class RemuxBenchmark {

    private static final long ROUND_NS = 1_000_000_000L;

    /** How long the source plays. */
    @Param({"60"})
    public int seconds;

    /** What ingest is handed: see the class comment. */
    @Param({"mp4", "fragmented-mp4", "webm"})
    public String container;

    /** Where the stored copy goes: see the class comment. */
    @Param({"plan", "buffered", "ingest", "direct", "discard"})
    public String output;

    private Path dir;
    private Path source;
    private Path stored;

    @Setup(Level.Trial)
    public void makeSource() throws IOException, InterruptedException {
        dir = Files.createTempDirectory(Path.of(System.getProperty("rondo.bench.dir",
            System.getProperty("java.io.tmpdir"))), "rondo-remux-");
        String extension = container.equals("webm") ? ".webm" : ".mp4";
        Path clip = dir.resolve("clip" + extension);
        source = dir.resolve("source" + extension);
        stored = dir.resolve("stored" + extension);
        List<String> codecs = switch (container) {
            case "mp4", "fragmented-mp4" -> List.of("-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac");
            case "webm" -> List.of("-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus");
            default -> throw new IllegalArgumentException("container is mp4, fragmented-mp4 or webm, was "
                + container);
        };
        List<String> encode = new ArrayList<>(List.of("-f", "lavfi", "-i",
            "testsrc2=size=1280x720:rate=25:duration=4", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000:duration=4"));
        encode.addAll(codecs);
        encode.addAll(List.of("-b:v", "4700k", "-maxrate", "5M", "-bufsize", "10M", "-pix_fmt", "yuv420p",
            "-b:a", "128k", clip.toString()));
        ffmpeg(encode);
        List<String> loop = new ArrayList<>(List.of("-stream_loop", "-1", "-i", clip.toString(), "-c", "copy",
            "-t", Integer.toString(seconds)));
        if (container.equals("fragmented-mp4")) {
            loop.addAll(List.of("-movflags", "+frag_keyframe+empty_moov+default_base_moof"));
        }
        loop.add(source.toString());
        ffmpeg(loop);
        Files.delete(clip);
        System.out.printf(Locale.ROOT, "%nsource: %s, %d s, %d bytes (%.1f Mbit/s)%n", container, seconds,
            Files.size(source), Files.size(source) * 8e-6 / seconds);
    }

    @TearDown(Level.Trial)
    public void deleteFiles() throws IOException {
        Files.deleteIfExists(stored);
        Files.deleteIfExists(source);
        Files.deleteIfExists(dir);
    }

    /** Plans the stored copy and, unless {@code output} is {@code plan}, writes it: init segment, every fragment. */
    @Benchmark
    public long remux() throws IOException {
        Preparation.Continuous prepared = (Preparation.Continuous) MediaIndexers.prepare(source, ROUND_NS);
        try (StoredMedia media = prepared.media()) {
            if (output.equals("plan")) {
                return media.index().fragments().size();
            }
            try (WritableByteChannel out = open()) {
                media.writeInit(out);
                int fragments = media.index().fragments().size();
                for (int i = 0; i < fragments; i++) {
                    media.writeFragment(i, out);
                }
                return media.size();
            }
        }
    }

    private WritableByteChannel open() throws IOException {
        Files.deleteIfExists(stored);
        return switch (output) {
            case "buffered" -> new Hashed(new ForcedFileChannel(FileChannel.open(stored, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)), sha256());
            case "ingest" -> new BackgroundHashed(new DirectFileWriter(stored), new BackgroundDigest(sha256()));
            case "direct" -> new DirectFileWriter(stored);
            case "discard" -> new Discard();
            default -> throw new IllegalArgumentException("output is plan, buffered, ingest, direct or discard, was "
                + output);
        };
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /** A file channel forced to the disk when closed. */
    private record ForcedFileChannel(FileChannel file) implements WritableByteChannel {

        @Override
        public int write(ByteBuffer src) throws IOException {
            return file.write(src);
        }

        @Override
        public boolean isOpen() {
            return file.isOpen();
        }

        @Override
        public void close() throws IOException {
            try (file) {
                file.force(true);
            }
        }
    }

    /** Hashes what goes through it on the digest's own thread, as ingest does for the ETag, and passes it on. */
    private record BackgroundHashed(WritableByteChannel out, BackgroundDigest digest) implements WritableByteChannel {

        @Override
        public int write(ByteBuffer src) throws IOException {
            digest.update(src);
            int n = 0;
            while (src.hasRemaining()) {
                n += out.write(src);
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return out.isOpen();
        }

        @Override
        public void close() throws IOException {
            try (digest) {
                digest.digest();
            } finally {
                out.close();
            }
        }
    }

    /** Hashes what goes through it on the copying thread, as ingest did before, before passing it on. */
    private record Hashed(WritableByteChannel out, MessageDigest digest) implements WritableByteChannel {

        @Override
        public int write(ByteBuffer src) throws IOException {
            digest.update(src.duplicate());
            int n = 0;
            while (src.hasRemaining()) {
                n += out.write(src);
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return out.isOpen();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** Takes every byte and keeps none. */
    private static final class Discard implements WritableByteChannel {

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    private static void ffmpeg(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-v", "error", "-y"));
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + printed);
        }
    }
}
