package io.rondo.benchmarks.preset.hls;

import io.rondo.benchmarks.rig.Nginx;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What an hls run does: its options, --quick's or the defaults where an option was not given. */
record HlsSettings(int sessions, int clips, int durationSeconds, int rampSeconds, int greedy, int greedyMib,
                   int liveSeconds, int bitrateKbit, int greedyNice, Nginx.Variant variant, long seed, boolean quick) {

    /** A second, in nanoseconds. */
    static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    /** How much media each session plays, from its clip's start. */
    long playNs() {
        return durationSeconds * SECOND_NS;
    }

    /** Over how long the sessions start, each at a random moment within it (the same moments on both servers). */
    long rampNs() {
        return rampSeconds * SECOND_NS;
    }

    /** Each clip outlasts what a session plays. */
    int clipSeconds() {
        return durationSeconds + 5;
    }

    /** The sound's tone of clip {@code index}, so that no two clips are the same file. */
    static int toneHz(int index) {
        return 300 + 20 * index;
    }

    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sessions", sessions);
        m.put("clips", clips);
        m.put("clip", String.format(Locale.ROOT, "fMP4, H.264 640x360 25 fps at %d kbit/s, a keyframe and a "
            + "fragment every second, AAC 128 kbit/s, %d s", bitrateKbit, clipSeconds()));
        m.put("playSeconds", durationSeconds);
        m.put("rampSeconds", rampSeconds);
        m.put("greedyReaders", greedy);
        m.put("greedyFileMiB", greedyMib);
        m.put("greedyNice", greedyNice);
        m.put("nginx", variant.label());
        m.put("liveSeconds", liveSeconds);
        m.put("seed", seed);
        m.put("quick", quick);
        m.put("cores", Runtime.getRuntime().availableProcessors());
        return m;
    }
}
