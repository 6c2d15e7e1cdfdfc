package io.rondo.benchmarks.preset.hls;

/**
 * One phase of an hls run: one server's sessions, with or without the greedy downloads beside
 * them, what they saw, and (Rondo only) the parts the server says it answered from memory and
 * from disk meanwhile.
 *
 * @param server {@code rondo} or nginx's variant's label
 * @param greedy whether the greedy downloaders ran beside the sessions
 * @param sessions the sessions started
 * @param log what the sessions saw
 * @param parts the server's count of parts by source in the phase; null for nginx
 * @param greedyBytes body bytes the greedy downloaders received; 0 without them
 * @param greedyElapsedNs how long they read
 */
record HlsPhase(String server, boolean greedy, int sessions, SessionLog log, HlsMeters.Parts parts,
                long greedyBytes, long greedyElapsedNs) {

    /** The phase's name in tables and charts: the server, and "+ 8 greedy" with them. */
    String label(int greedyReaders) {
        return greedy ? server + " + " + greedyReaders + " greedy" : server;
    }

    /** The greedy downloaders' throughput, MB/s; 0 without them. */
    double greedyMegabytesPerSecond() {
        return greedyElapsedNs <= 0 ? 0 : greedyBytes / 1e6 / (greedyElapsedNs / 1e9);
    }
}
