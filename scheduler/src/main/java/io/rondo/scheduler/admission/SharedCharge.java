package io.rondo.scheduler.admission;

import java.util.Map;

/**
 * A stream's part in a shared buffer account ({@link SharedBuffers}): which account, how many of
 * its buffers it may draw there and how large, how long it holds one after its read, and per disk
 * it reads from, the most buffer bytes a second of that disk's reads can fill (its fastest curve).
 */
record SharedCharge(String account, long bufferBytes, int buffers, long holdNs, Map<String, Double> fillBytesPerNs) {

    /** The most it draws at once. */
    long needBytes() {
        return bufferBytes * buffers;
    }
}
