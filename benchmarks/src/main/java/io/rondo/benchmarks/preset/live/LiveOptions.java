package io.rondo.benchmarks.preset.live;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The options both live presets take: where they work, the greedy readers, and the recordings' media. */
final class LiveOptions {

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "bench-work/live",
        description = "Where the media, the large files, Rondo's library and the best-effort recordings are made "
            + "(default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--greedy", paramLabel = "N", defaultValue = "8",
        description = "Greedy downloaders (default: ${DEFAULT-VALUE}, as papers/002).")
    int greedy;

    @Option(names = "--greedy-size", paramLabel = "MIB", description = "Each greedy reader's file, MiB "
        + "(default: 128; --quick: 8).")
    Integer greedyMib;

    @Option(names = "--bitrate", paramLabel = "KBIT", defaultValue = "4000",
        description = "The media's video bit rate, kbit/s (default: ${DEFAULT-VALUE}).")
    int bitrateKbit;

    @Option(names = "--peak", paramLabel = "KBIT", defaultValue = "6000",
        description = "The peak rate each recording declares, kbit/s (default: ${DEFAULT-VALUE}).")
    int peakKbit;

    @Option(names = "--greedy-nice", paramLabel = "N", defaultValue = "19",
        description = "The greedy readers' nice level (default: ${DEFAULT-VALUE}); 0 for the same as the bench.")
    int greedyNice;

    /** Each greedy reader's file, MiB, --quick's where not given. */
    int greedyMib(boolean quick) {
        return greedyMib != null ? greedyMib : quick ? 8 : 128;
    }

    /** Whether the shared options are in range; a preset adds its own checks. */
    boolean valid(boolean quick) {
        return greedy >= 1 && greedyMib(quick) >= 1 && bitrateKbit >= 100 && peakKbit >= bitrateKbit
            && greedyNice >= 0 && greedyNice <= 19;
    }
}
