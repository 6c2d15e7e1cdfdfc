package io.rondo.benchmarks.jmh;

import io.rondo.scheduler.device.AlignedBuffers;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.DiskReaders;
import io.rondo.scheduler.device.OpenFile;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * The disk readers' speed: sequential O_DIRECT reads of {@code blockSize} through the native
 * reader and the pure-Java one, to set beside {@code dd if=FILE of=/dev/null bs=SIZE iflag=direct}
 * on the same file (target: the native reader at 0.95 of dd or better). The file, 256 MiB, is made
 * in {@code -Drondo.bench.dir} (default: the temporary folder) and kept for the next run.
 * Throughput in MB/s is {@code blockSize / score}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DiskReadBenchmark {

    private static final long FILE_BYTES = 256L << 20;

    @Param({"native", "java"})
    public String reader;

    @Param({"4096", "1048576"})
    public int blockSize;

    private OpenFile file;
    private ByteBuffer buffer;
    private long offset;

    @Setup(Level.Trial)
    public void open() throws IOException {
        Path path = Path.of(System.getProperty("rondo.bench.dir", System.getProperty("java.io.tmpdir")))
            .resolve("rondo-read-benchmark.dat");
        if (!Files.isRegularFile(path) || Files.size(path) != FILE_BYTES) {
            write(path);
        }
        DiskIo io = reader.equals("native") ? DiskReaders.nativeReader()
            : DiskReaders.javaReader("chosen by the benchmark");
        file = io.open(path);
        buffer = AlignedBuffers.allocate(blockSize);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        file.close();
    }

    /** One sequential read of {@code blockSize}, wrapping at the end of the file. */
    @Benchmark
    public int readSequential() throws IOException {
        buffer.clear();
        int read = file.readAligned(offset, buffer);
        offset = offset + blockSize >= FILE_BYTES ? 0 : offset + blockSize;
        return read;
    }

    private static void write(Path path) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        for (int i = 0; i < chunk.capacity(); i += Long.BYTES) {
            chunk.putLong(i, i * 0x9E3779B97F4A7C15L);
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long written = 0; written < FILE_BYTES; written += chunk.capacity()) {
                chunk.clear();
                channel.write(chunk);
            }
            channel.force(true);
        }
    }
}
