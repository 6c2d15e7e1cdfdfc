package io.rondo.server.stream;

import io.rondo.server.runtime.Chunk;

import java.util.TreeMap;

/**
 * The fragments of one stream that have been read and wait to be sent, put back in order: reads
 * complete in disk order, DATA goes out in fragment order. No fragment is ever skipped: every read
 * of an admitted stream is taken by its disk, and one the disk dropped at a round's end is read
 * again. Event loop only.
 */
final class Outbox {

    /** A fragment read and waiting: its bytes and when it must be fully sent. */
    record Ready(int fragment, Chunk chunk, long deadlineNs) {
    }

    private final TreeMap<Integer, Ready> ready = new TreeMap<>();
    private int nextToSend;

    /** Starts (again) at fragment {@code fragment}; returns how many waiting fragments were dropped. */
    int moveTo(int fragment) {
        int dropped = clear();
        nextToSend = fragment;
        return dropped;
    }

    void add(Ready fragment) {
        ready.put(fragment.fragment(), fragment);
    }

    /** The next fragment in order, or null while it has not arrived. */
    Ready takeNext() {
        return ready.remove(nextToSend);
    }

    /** The fragment to send next. */
    int nextToSend() {
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
}
