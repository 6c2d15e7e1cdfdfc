package io.rondo.benchmarks.preset.jitter;

import io.rondo.benchmarks.rig.Nginx;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What a figure14 run does: its options, --quick's or the defaults where an option was not given. */
record JitterSettings(int streams, int greedy, int greedyMib, int durationSeconds, int blockBytes, int bitrateKbit,
                      int greedyNice, List<Nginx.Variant> variants, boolean dropCaches, boolean quick) {

    /** A second, in nanoseconds. */
    static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    long durationNs() {
        return TimeUnit.SECONDS.toNanos(durationSeconds);
    }

    /** Over how long the streams start, evenly: half a second a stream, at most 5 s. */
    long rampNs() {
        return Math.min(5 * SECOND_NS, streams * SECOND_NS / 2);
    }

    /** The clip outlasts every stream's reads, so no stream ends early. */
    int clipSeconds() {
        return durationSeconds + (int) (rampNs() / SECOND_NS) + 15;
    }

    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("streams", streams);
        m.put("greedyReaders", greedy);
        m.put("greedyFileMiB", greedyMib);
        m.put("durationSeconds", durationSeconds);
        m.put("rampSeconds", rampNs() / 1e9);
        m.put("blockBytes", blockBytes);
        m.put("clip", String.format(Locale.ROOT, "H.264 640x360 25 fps, %d kbit/s, GOP 250, %d s",
            bitrateKbit, clipSeconds()));
        m.put("nginxVariants", variants.stream().map(Nginx.Variant::label).toList());
        m.put("greedyNice", greedyNice);
        m.put("dropCaches", dropCaches);
        m.put("quick", quick);
        m.put("cores", Runtime.getRuntime().availableProcessors());
        return m;
    }
}
