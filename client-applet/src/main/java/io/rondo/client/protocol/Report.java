package io.rondo.client.protocol;

/**
 * REPORT: the client's periodic account (about once a second) of how it is keeping up; it also
 * tells the server the client is alive.
 *
 * @param bufferedNs presentation time held ahead of playback, in nanoseconds
 * @param bufferedBytes bytes held ahead of playback
 * @param bytesReceived DATA payload bytes received on this stream so far
 */
public record Report(long bufferedNs, long bufferedBytes, long bytesReceived) implements Frame {
    /** Checks no field is negative. */
    public Report {
        Wire.nonNegative(bufferedNs, "bufferedNs");
        Wire.nonNegative(bufferedBytes, "bufferedBytes");
        Wire.nonNegative(bytesReceived, "bytesReceived");
    }

    @Override
    public FrameType type() {
        return FrameType.REPORT;
    }
}
