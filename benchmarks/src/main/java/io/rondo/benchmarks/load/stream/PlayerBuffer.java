package io.rondo.benchmarks.load.stream;

import java.util.ArrayDeque;

/**
 * A load client's model of a player's buffer: the fragments received and not yet played. Playback
 * starts when the first fragment is due (the moment a player that trusts the deadlines may start,
 * papers/004 Section 3.2) and then runs at the media's own rate, one second of media per second;
 * a fragment leaves the buffer once it has been played. What the buffer holds goes into REPORT,
 * and a full buffer stops the client reading until playback has made room, as a real player's
 * would. Not thread-safe: the stream's event loop owns it.
 */
final class PlayerBuffer {

    /** A fragment held: where its media ends, and its bytes. */
    private record Held(long endPresentationNs, long bytes) {
    }

    private final long capacityBytes;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long heldBytes;
    private long receivedEndNs;
    private long playStartNs;
    private long playStartPresentationNs;
    private boolean started;

    /** @param capacityBytes the buffer the client declared in OPEN */
    PlayerBuffer(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    /**
     * A fragment arrived.
     *
     * @param presentationNs its first presentation time
     * @param durationNs its display time (the ACCEPT's fragment duration)
     * @param bytes its size
     * @param dueNs when it was due, on the client's clock; the first one sets when playback starts
     */
    void received(long presentationNs, long durationNs, long bytes, long dueNs) {
        if (!started) {
            started = true;
            playStartNs = dueNs;
            playStartPresentationNs = presentationNs;
        }
        long endNs = presentationNs + durationNs;
        held.addLast(new Held(endNs, bytes));
        heldBytes += bytes;
        receivedEndNs = Math.max(receivedEndNs, endNs);
    }

    /** Media time held ahead of playback at {@code nowNs}. */
    long bufferedNs(long nowNs) {
        return started ? Math.max(0, receivedEndNs - playPosition(nowNs)) : 0;
    }

    /** Bytes held ahead of playback at {@code nowNs}: fragments not yet played to their end. */
    long bufferedBytes(long nowNs) {
        drain(nowNs);
        return heldBytes;
    }

    /** Whether the buffer is full at {@code nowNs}: the client reads nothing more until it is not. */
    boolean full(long nowNs) {
        return bufferedBytes(nowNs) >= capacityBytes;
    }

    /** How long from {@code nowNs} until the oldest fragment held has been played; 0 if none is held. */
    long nextRoomInNs(long nowNs) {
        drain(nowNs);
        Held oldest = held.peekFirst();
        return oldest == null ? 0 : Math.max(0, oldest.endPresentationNs() - playPosition(nowNs));
    }

    private void drain(long nowNs) {
        long position = playPosition(nowNs);
        while (!held.isEmpty() && held.peekFirst().endPresentationNs() - position <= 0) {
            heldBytes -= held.removeFirst().bytes();
        }
    }

    private long playPosition(long nowNs) {
        return playStartPresentationNs + Math.max(0, nowNs - playStartNs);
    }
}
