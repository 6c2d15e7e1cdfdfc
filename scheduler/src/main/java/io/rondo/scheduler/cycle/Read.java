package io.rondo.scheduler.cycle;

/**
 * One IO of a cycle: a stream's data for the cycles until its next read.
 *
 * @param streamId the stream read
 * @param ioNs     the playback time the IO reads: a whole number of quanta
 * @param bytes    what that playback time takes at the stream's rate
 */
public record Read(long streamId, long ioNs, long bytes) {
}
