package io.rondo.scheduler.time;

import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.time.Clock;

/**
 * The machine's clocks. This is the only class of Rondo that reads the system's time; a server,
 * a command or a benchmark takes its clocks from here once, at its root, and hands them down, so
 * that a test can hand down a stepped clock instead ({@code CachedNanoClock}, {@code
 * CachedEpochClock}, {@link Clock#fixed}). The build refuses a read of the system's time anywhere
 * else (forbiddenapis, {@code config/forbidden-clocks.txt}).
 */
public final class SystemClocks {

    private SystemClocks() {
    }

    /** The monotonic clock, in nanoseconds from an arbitrary origin: for durations and deadlines. */
    public static NanoClock nanoClock() {
        return SystemNanoClock.INSTANCE;
    }

    /** The wall clock, in milliseconds since the epoch: for timestamps people read. */
    public static EpochClock epochClock() {
        return SystemEpochClock.INSTANCE;
    }

    /** The wall clock in UTC, for {@code java.time} and the HTTP dates. */
    public static Clock utc() {
        return Clock.systemUTC();
    }
}
