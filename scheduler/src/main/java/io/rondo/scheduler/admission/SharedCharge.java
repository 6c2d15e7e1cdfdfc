package io.rondo.scheduler.admission;

import java.util.Map;

/**
 * A stream's part in a shared buffer account ({@link SharedBuffers}): which account, how many of
 * its buffers it may draw there and how large, how long it holds one, and per disk it reads from,
 * the least time one of its reads takes there (the disk's fastest curve).
 */
record SharedCharge(String account, long bufferBytes, int buffers, long holdNs, Map<String, Long> fastestReadNs) {

    /** The most it draws at once. */
    long needBytes() {
        return bufferBytes * buffers;
    }
}
