package io.rondo.scheduler.admission;

import java.util.Map;

/**
 * What a stream is charged: its load on each disk it touches in every round its cadence reads
 * in, buffer memory, and network.
 */
record Charge(long streamId, Map<String, DiskLoad> loadByDisk, long bufferBytes, long networkBitsPerSecond,
              Cadence cadence) {
}
