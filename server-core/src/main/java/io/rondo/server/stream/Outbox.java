package io.rondo.server.stream;

import io.rondo.server.runtime.Chunk;

import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fragments of one stream that have been read and wait to be sent, put back in order: reads
 * complete in disk order, DATA goes out in fragment order. A fragment the disk was too busy to
 * read is skipped (the client sees a gap in the fragment numbers, counted as a glitch). Event loop
 * only.
 */
final class Outbox {

    /** A fragment read and waiting: its bytes and when it must be fully sent. */
    record Ready(int fragment, Chunk chunk, long deadlineNs) {
    }

    private final TreeMap<Integer, Ready> ready = new TreeMap<>();
    private final Set<Integer> lost = new HashSet<>();
    private int nextToSend;

    /** Starts (again) at fragment {@code fragment}; returns how many waiting fragments were dropped. */
    int moveTo(int fragment) {
        int dropped = clear();
        lost.clear();
        nextToSend = fragment;
        return dropped;
    }

    void add(Ready fragment) {
        ready.put(fragment.fragment(), fragment);
    }

    void lose(int fragment) {
        lost.add(fragment);
    }

    /** The next fragment in order, after any lost ones, or null while it has not arrived. */
    Ready takeNext() {
        skipLost();
        return ready.remove(nextToSend);
    }

    /** The fragment to send next, after any lost ones. */
    int nextToSend() {
        skipLost();
        return nextToSend;
    }

    /** The fragment just taken was sent. */
    void sent() {
        nextToSend++;
    }

    /** Releases what waits; returns how many fragments that was. */
    int clear() {
        int dropped = ready.size();
        ready.values().forEach(waiting -> waiting.chunk().release());
        ready.clear();
        return dropped;
    }

    private void skipLost() {
        while (lost.remove(nextToSend)) {
            nextToSend++;
        }
    }
}
