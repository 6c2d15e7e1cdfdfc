package io.rondo.content.media;

import com.sun.nio.file.ExtendedOpenOption;
import io.rondo.scheduler.device.AlignedBuffers;
import io.rondo.scheduler.device.DiskIo;
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
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * How fast ingest remuxes an MP4 (papers/001 Section 1.1: one fragment per round): each operation
 * plans a progressive H.264 + AAC MP4 of {@code seconds} at about 5 Mbit/s, as ffmpeg writes it
 * (moov at the end, a chunk per frame, interleaved), and writes the stored copy. Throughput is the
 * source's size (printed at setup) over the score; target: at least 0.8 of the disk's sequential
 * write speed, {@code dd if=/dev/zero of=DIR/x bs=1M count=4096 oflag=direct}.
 *
 * <p>{@code output} is where the stored copy goes:
 * <ul>
 *   <li>{@code buffered}: a file through the page cache, forced at the end, as ingest writes today;
 *   <li>{@code direct}: a file opened O_DIRECT, written from two aligned 8 MiB buffers by a second
 *       thread while the remux fills the other, then forced;
 *   <li>{@code discard}: nowhere, which measures the remux alone: the planning and the reads.
 * </ul>
 *
 * <p>The source is made at setup with ffmpeg (which must be on the PATH): 4 s of 1280x720
 * libx264 (with B-frames) at about 5 Mbit/s with AAC, stream-copied in a loop to {@code seconds},
 * in {@code -Drondo.bench.dir} (default: the temporary folder), and deleted at teardown with the
 * stored copy. The default runs in seconds for CI's smoke run; a film is {@code -p seconds=7200}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class RemuxBenchmark {

    private static final long ROUND_NS = 1_000_000_000L;
    private static final int DIRECT_BUFFER_BYTES = 8 << 20;

    /** How long the source plays. */
    @Param({"60"})
    public int seconds;

    /** Where the stored copy goes: see the class comment. */
    @Param({"buffered", "direct", "discard"})
    public String output;

    private Path dir;
    private Path source;
    private Path stored;

    @Setup(Level.Trial)
    public void makeSource() throws IOException, InterruptedException {
        dir = Files.createTempDirectory(Path.of(System.getProperty("rondo.bench.dir",
            System.getProperty("java.io.tmpdir"))), "rondo-remux-");
        Path clip = dir.resolve("clip.mp4");
        source = dir.resolve("source.mp4");
        stored = dir.resolve("stored.mp4");
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=4", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000:duration=4", "-c:v", "libx264", "-preset", "veryfast", "-b:v",
            "4700k", "-maxrate", "5M", "-bufsize", "10M", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k",
            clip.toString());
        ffmpeg("-stream_loop", "-1", "-i", clip.toString(), "-c", "copy", "-t", Integer.toString(seconds),
            source.toString());
        Files.delete(clip);
        System.out.printf(Locale.ROOT, "%nsource: %d s, %d bytes (%.1f Mbit/s)%n", seconds, Files.size(source),
            Files.size(source) * 8e-6 / seconds);
    }

    @TearDown(Level.Trial)
    public void deleteFiles() throws IOException {
        Files.deleteIfExists(stored);
        Files.deleteIfExists(source);
        Files.deleteIfExists(dir);
    }

    /** Plans the stored copy and writes it, the init segment and every fragment. */
    @Benchmark
    public long remux() throws IOException {
        Preparation.Continuous prepared = (Preparation.Continuous) Mp4Remuxer.prepare(source, ROUND_NS);
        try (StoredMedia media = prepared.media(); WritableByteChannel out = open()) {
            media.writeInit(out);
            int fragments = media.index().fragments().size();
            for (int i = 0; i < fragments; i++) {
                media.writeFragment(i, out);
            }
            return media.size();
        }
    }

    private WritableByteChannel open() throws IOException {
        return switch (output) {
            case "buffered" -> new ForcedFileChannel(FileChannel.open(stored, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE));
            case "direct" -> new DirectFileChannel(stored);
            case "discard" -> new Discard();
            default -> throw new IllegalArgumentException("output is buffered, direct or discard, was " + output);
        };
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

    /**
     * A file written O_DIRECT: the bytes gather in one of two aligned buffers, and a full one is
     * written by a second thread while the other fills. Closing writes the last, padded to the
     * alignment, cuts the file to its true size and forces it.
     */
    private static final class DirectFileChannel implements WritableByteChannel {
        private final Path path;
        private final FileChannel file;
        private final ByteBuffer[] buffers = {AlignedBuffers.allocate(DIRECT_BUFFER_BYTES),
            AlignedBuffers.allocate(DIRECT_BUFFER_BYTES)};
        private final ExecutorService writer = Executors.newSingleThreadExecutor();
        private Future<?> pending;
        private int filling;
        private long written;

        DirectFileChannel(Path path) throws IOException {
            this.path = path;
            this.file = open(path);
        }

        private static FileChannel open(Path path) throws IOException {
            try {
                return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
            } catch (AccessDeniedException | NoSuchFileException e) {
                throw e;
            } catch (FileSystemException refused) {
                // EINVAL: this file system has no O_DIRECT (tmpfs); the figure is then the page cache's
                System.out.println("\n" + path.getParent() + " refuses O_DIRECT: output=direct writes through the"
                    + " page cache");
                return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
            }
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = src.remaining();
            while (src.hasRemaining()) {
                ByteBuffer buffer = buffers[filling];
                int take = Math.min(src.remaining(), buffer.remaining());
                buffer.put(buffer.position(), src, src.position(), take);
                buffer.position(buffer.position() + take);
                src.position(src.position() + take);
                if (!buffer.hasRemaining()) {
                    hand(buffer);
                }
            }
            return n;
        }

        /** Waits for the buffer being written, then has this full one written. */
        private void hand(ByteBuffer full) throws IOException {
            await();
            full.flip();
            long at = written;
            written += full.remaining();
            pending = writer.submit(() -> {
                while (full.hasRemaining()) {
                    file.write(full, at + full.position());
                }
                full.clear();
                return null;
            });
            filling ^= 1;
        }

        private void await() throws IOException {
            if (pending == null) {
                return;
            }
            try {
                pending.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the stored copy was written");
            } catch (ExecutionException e) {
                throw new IOException(e.getCause());
            }
        }

        @Override
        public boolean isOpen() {
            return file.isOpen();
        }

        @Override
        public void close() throws IOException {
            long size = written + buffers[filling].position();
            try (file) {
                ByteBuffer last = buffers[filling];
                last.position((last.position() + DiskIo.ALIGNMENT - 1) / DiskIo.ALIGNMENT * DiskIo.ALIGNMENT);
                hand(last);
                await();
            } finally {
                writer.shutdownNow();
            }
            try (FileChannel sized = FileChannel.open(path, StandardOpenOption.WRITE)) {
                sized.truncate(size);
                sized.force(true);
            }
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

    private static void ffmpeg(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-v", "error", "-y"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + printed);
        }
    }
}
