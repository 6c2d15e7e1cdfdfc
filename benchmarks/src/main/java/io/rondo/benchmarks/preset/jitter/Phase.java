package io.rondo.benchmarks.preset.jitter;

import io.rondo.benchmarks.load.paced.DelayLog;
import java.util.Map;

/**
 * What one server did in one phase of the run: its paced stream reads' jitter, its greedy
 * downloads' service times and bytes, and whatever else it reports of itself.
 *
 * @param server the server's label: {@code rondo}, {@code nginx-directio} or {@code nginx-sendfile}
 * @param guaranteed whether its streams had guarantees (Rondo's admitted streams) or best effort
 * @param streams the paced reads of the streams
 * @param greedy the greedy downloads
 * @param greedyBytes body bytes the greedy readers received, requests cut short at the end included
 * @param elapsedNs how long the greedy readers ran
 * @param streamsAdmitted streams that ran (for Rondo, admitted; for nginx, every reader)
 * @param glitches Rondo's DATA that arrived after their deadline; -1 for a server that sets none
 * @param dataJitterMeanNs Rondo's DATA's RFC 3550 jitter (arrival against deadline), mean over streams; NaN
 *     for nginx
 * @param readsThatWaited Rondo's paced reads that found their fragment not yet there; -1 for nginx, whose every
 *     read waits for the server
 * @param extra the server's own figures for the JSON (Rondo's stream load summary)
 */
record Phase(String server, boolean guaranteed, DelayLog streams, DelayLog greedy, long greedyBytes, long elapsedNs,
             long streamsAdmitted, long glitches, double dataJitterMeanNs, long readsThatWaited,
             Map<String, Object> extra) {

    /** The greedy readers' throughput, MB (10^6 bytes) a second. */
    double greedyMegabytesPerSecond() {
        return elapsedNs > 0 ? greedyBytes / 1e6 / (elapsedNs / 1e9) : 0;
    }
}
