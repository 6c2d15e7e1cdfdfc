package io.rondo.scheduler.cycle;

/**
 * One stream in a {@link CycleSchedule}.
 *
 * @param id             the stream's id, not negative
 * @param bytesPerSecond the rate it plays at
 * @param partner        the stream it is combined with, or {@link #UNCOMBINED}
 * @param phase          when combined: it reads in the cycles whose index has this parity (0 or 1)
 * @param leadNs         at the start of the schedule's cycle, how long the data it holds (or will
 *                       have read by then) plays from that moment; for a stream that has not
 *                       started playing, the cycle's length, as it starts at the cycle's end
 */
public record ScheduledStream(long id, long bytesPerSecond, long partner, int phase, long leadNs) {

    /** The partner of a stream read on its own. */
    public static final long UNCOMBINED = -1;

    public ScheduledStream {
        if (id < 0) {
            throw new IllegalArgumentException("a stream id must not be negative, was " + id);
        }
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("stream " + id + " must play at a positive rate, was "
                + bytesPerSecond + " B/s");
        }
    }

    /** True if it is read in a pair with another stream, one IO of two cycles' data every other cycle. */
    public boolean combined() {
        return partner != UNCOMBINED;
    }

    /** The bytes that {@code ns} of its playback take, rounded up. */
    public long bytesOf(long ns) {
        return (long) Math.ceil(bytesPerSecond * (double) ns / 1e9);
    }

    ScheduledStream withPair(long newPartner, int newPhase) {
        return new ScheduledStream(id, bytesPerSecond, newPartner, newPhase, leadNs);
    }

    ScheduledStream withLead(long newLeadNs) {
        return new ScheduledStream(id, bytesPerSecond, partner, phase, newLeadNs);
    }
}
