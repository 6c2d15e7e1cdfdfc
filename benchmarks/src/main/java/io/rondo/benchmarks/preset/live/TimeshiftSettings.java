package io.rondo.benchmarks.preset.live;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a timeshift run does: its options, --quick's or the defaults where an option was not given.
 *
 * @param recordings recordings written at once
 * @param greedy greedy downloaders
 * @param greedyMib each greedy reader's file, MiB
 * @param durationSeconds how long each phase records
 * @param behindSeconds how far behind the recording the viewer watches
 * @param bitrateKbit the media's video bit rate, kbit/s
 * @param peakKbit the peak each recording declares, kbit/s
 * @param blockBytes what one paced read of the viewer takes
 * @param greedyNice the greedy readers' nice level
 * @param quick whether this is the smoke run
 */
record TimeshiftSettings(int recordings, int greedy, int greedyMib, int durationSeconds, int behindSeconds,
                         int bitrateKbit, int peakKbit, int blockBytes, int greedyNice, boolean quick) {

    /** The media outlasts the recordings, so none ends early. */
    int clipSeconds() {
        return durationSeconds + 5;
    }

    long durationNs() {
        return durationSeconds * LiveRig.SECOND_NS;
    }

    long behindNs() {
        return behindSeconds * LiveRig.SECOND_NS;
    }

    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("recordings", recordings);
        m.put("greedyReaders", greedy);
        m.put("greedyFileMiB", greedyMib);
        m.put("durationSeconds", durationSeconds);
        m.put("viewerBehindSeconds", behindSeconds);
        m.put("media", "live fragmented MP4, H.264 640x360 25 fps, " + bitrateKbit + " kbit/s capped, keyframe every "
            + "second, AAC; sent at its mean rate in 100 ms slices");
        m.put("declaredPeakKbit", peakKbit);
        m.put("viewerBlockBytes", blockBytes);
        m.put("greedyNice", greedyNice);
        m.put("quick", quick);
        m.put("cores", Runtime.getRuntime().availableProcessors());
        return m;
    }
}
