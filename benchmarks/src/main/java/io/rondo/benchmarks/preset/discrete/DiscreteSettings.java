package io.rondo.benchmarks.preset.discrete;

import io.rondo.benchmarks.rig.Nginx;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** What a discrete-vs-nginx run does, the defaults and --quick resolved. */
record DiscreteSettings(int files, long meanBytes, long sdBytes, long seed, long warmupNs, long measureNs,
                        int repeats, int iterations, int streams, long streamBitrate, List<Nginx.Variant> variants,
                        int clientThreads, long timeoutNs, double[] sweep, long serverWarmupNs,
                        List<String> rondoJavaOptions) {

    /** The concurrency each variant is measured at: as the team's first measurements were. */
    static int connections(Nginx.Variant variant) {
        return variant == Nginx.Variant.SENDFILE ? 32 : 8;
    }

    /** How long the clip must be for the streams to play through the streamed phase. */
    int clipSeconds() {
        long jmhRunNs = TimeUnit.SECONDS.toNanos(2) + warmupNs + iterations * measureNs;
        long phaseNs = streamRampNs() + repeats * jmhRunNs + TimeUnit.SECONDS.toNanos(30);
        return (int) Math.max(20, TimeUnit.NANOSECONDS.toSeconds(phaseNs) + 1);
    }

    long streamRampNs() {
        return TimeUnit.SECONDS.toNanos(streams >= 50 ? 10 : 3);
    }
}
