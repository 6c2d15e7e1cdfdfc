package io.rondo.benchmarks.jmh;

import io.rondo.scheduler.device.DiskReaders;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The JNI call's own cost per IO (target: under 5 µs): a native call that does nothing but return,
 * the round trip every read pays on top of its system call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JniCallBenchmark {

    @Setup
    public void load() {
        if (DiskReaders.nativeLoadFailure() != null) {
            throw new IllegalStateException("the native reader did not load: " + DiskReaders.nativeLoadFailure());
        }
    }

    @Benchmark
    public int emptyNativeCall() {
        return DiskReaders.emptyNativeCall();
    }
}
