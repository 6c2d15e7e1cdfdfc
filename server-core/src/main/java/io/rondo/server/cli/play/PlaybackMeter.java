package io.rondo.server.cli.play;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Data;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The client's side of the stream's accounting, from its frames and when they arrived: how far the
 * media written runs ahead of real-time playback (what REPORT tells the server), the receive rate,
 * and the glitches. Every method is handed {@code nowNs}, read once per DATA from the command's
 * clock, so tests step time instead of waiting for it.
 *
 * <p>The buffer is the media written ahead of real-time playback: presentation time written
 * (to the end of the last fragment) since the first DATA, minus wall time since the first DATA.
 * A decoder reading the pipe plays from the first fragment at real-time speed, so that is what
 * it holds ahead of its playhead. Its bytes are estimated from the object's mean bit rate.
 */
final class PlaybackMeter {
    /** The receive rate is measured over this window. */
    static final long RATE_WINDOW_NS = 3_000_000_000L;
    /**
     * The rate is never divided by less than this: the first fragment arrives a moment after
     * ACCEPT, and its bytes over that moment would be the loopback's speed, not the stream's.
     */
    static final long RATE_MIN_SPAN_NS = 1_000_000_000L;

    /** The bytes received by {@code atNs}, the init segment's included. */
    private record Received(long atNs, long bytes) {
    }

    private final long acceptedNs;
    private final long fragmentDurationNs;
    private final long bitsPerSecond;
    /** At ACCEPT and at each DATA, the oldest at or just before the rate's window. */
    private final ArrayDeque<Received> window = new ArrayDeque<>();
    private long bytes;
    private long fragments;
    private long glitches;
    private long firstDataNs;
    private long firstPresentationNs;
    private long writtenToNs;

    PlaybackMeter(Accept accept, long acceptedNs) {
        this(accept.fragmentDurationNs(), accept.bitsPerSecond(), accept.initSegment().remaining(), acceptedNs);
    }

    /**
     * @param fragmentDurationNs display time of one fragment, from ACCEPT
     * @param bitsPerSecond the object's mean bit rate, from ACCEPT
     * @param initBytes the init segment's length, written first
     * @param acceptedNs when ACCEPT arrived: 0 on the stream's clock
     */
    PlaybackMeter(long fragmentDurationNs, long bitsPerSecond, long initBytes, long acceptedNs) {
        this.fragmentDurationNs = fragmentDurationNs;
        this.bitsPerSecond = bitsPerSecond;
        this.acceptedNs = acceptedNs;
        this.bytes = initBytes;
        window.add(new Received(acceptedNs, initBytes));
    }

    /**
     * Counts a DATA that arrived at {@code nowNs}.
     *
     * @return whether it was a glitch: it arrived after its deadline on the stream's clock
     */
    boolean received(Data data, long nowNs) {
        boolean late = (nowNs - acceptedNs) - data.deadlineNs() > 0;
        if (late) {
            glitches++;
        }
        if (fragments == 0) {
            firstDataNs = nowNs;
            firstPresentationNs = data.presentationNs();
        }
        fragments++;
        bytes += data.payload().remaining();
        writtenToNs = data.presentationNs() + fragmentDurationNs;
        window.add(new Received(nowNs, bytes));
        while (window.size() > 1 && nowNs - nextToOldest().atNs() >= RATE_WINDOW_NS) {
            window.poll();
        }
        return late;
    }

    private Received nextToOldest() {
        Iterator<Received> it = window.iterator();
        it.next();
        return it.next();
    }

    /** Presentation time written ahead of real-time playback from the first DATA; 0 before it. */
    long bufferedNs(long nowNs) {
        if (fragments == 0) {
            return 0;
        }
        return Math.max(0, (writtenToNs - firstPresentationNs) - (nowNs - firstDataNs));
    }

    /** The bytes of {@link #bufferedNs}, at the object's mean bit rate. */
    long bufferedBytes(long nowNs) {
        return Math.round(bufferedNs(nowNs) * (double) bitsPerSecond / 8e9);
    }

    /**
     * Bytes per second received over about the last {@link #RATE_WINDOW_NS} since ACCEPT, the
     * span taken as at least {@link #RATE_MIN_SPAN_NS}.
     */
    long bytesPerSecond(long nowNs) {
        Received oldest = window.peek();
        long spanNs = Math.max(RATE_MIN_SPAN_NS, nowNs - oldest.atNs());
        return (long) ((bytes - oldest.bytes()) * 1e9 / spanNs);
    }

    /** Time since ACCEPT, at least 1 ns: what the summary divides by. */
    long sinceAcceptedNs(long nowNs) {
        return Math.max(1, nowNs - acceptedNs);
    }

    /** Bytes per second received since ACCEPT, for the summary. */
    long meanBytesPerSecond(long nowNs) {
        return (long) (bytes * 1e9 / sinceAcceptedNs(nowNs));
    }

    /** The bytes received, the init segment's included. */
    long bytes() {
        return bytes;
    }

    long fragments() {
        return fragments;
    }

    long glitches() {
        return glitches;
    }

    /** The media position written to: the end of the last fragment, in nanoseconds of presentation time. */
    long positionNs() {
        return writtenToNs;
    }
}
