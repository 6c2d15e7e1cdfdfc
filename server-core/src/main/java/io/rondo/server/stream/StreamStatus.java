package io.rondo.server.stream;

import java.util.List;

/**
 * A stream as the admin API shows it ({@code GET /api/v1/streams}), taken on the stream's own
 * event loop so that its fields agree with each other.
 *
 * @param id               the stream id ACCEPT gave
 * @param object           the object's name
 * @param client           the client's address and port
 * @param transport        {@code tcp} or {@code websocket}
 * @param state            {@code starting} (admitted, no DATA sent yet), {@code playing}, {@code paused} or
 *                         {@code ended}
 * @param startedAt        when OPEN arrived (ISO-8601, UTC)
 * @param positionSeconds  the presentation time of the last fragment sent
 * @param profile          the client's declared profile; null for an HLS session, whose client declares none
 * @param bufferMode       how its buffers are reserved (papers/004 Section 4): {@code dblbuf}, {@code clbuf}
 *                         or {@code clbufrate}
 * @param disks            the disks its object is read from
 * @param bytesSent        fragment bytes sent
 * @param fragmentsSent    DATA frames sent
 * @param glitches         fragments not on the wire by their deadline
 * @param maxLatenessMs    the latest a fragment went out, send time minus deadline (negative: early); null before
 *                         the first
 * @param initialLatencyMs OPEN to the first DATA on the wire; null before it
 */
public record StreamStatus(long id, String object, String client, String transport, String state, String startedAt,
                           double positionSeconds, Profile profile, String bufferMode, List<String> disks,
                           long bytesSent,
                           long fragmentsSent, long glitches, Double maxLatenessMs, Double initialLatencyMs) {

    /**
     * A client's profile (papers/004 Section 2.3).
     *
     * @param receiveBytesPerSecond the most it receives a second
     * @param bufferBytes           its buffer
     */
    public record Profile(long receiveBytesPerSecond, long bufferBytes) {
    }
}
