package io.rondo.scheduler.admission;

import java.util.Map;

/**
 * What a stream is charged: its load on each disk it touches in every round its cadence reads
 * in, the buffer memory reserved for it alone ({@code bufferBytes}), its part in a shared buffer
 * account ({@code shared}, null for double buffering), and network.
 */
record Charge(long streamId, Map<String, DiskLoad> loadByDisk, long bufferBytes, long networkBitsPerSecond,
              SharedCharge shared, Cadence cadence) {

    /** The buffer memory it could take at most: its own, and all it may draw on its shared account. */
    long mostBufferBytes() {
        return bufferBytes + (shared == null ? 0 : shared.needBytes());
    }
}
