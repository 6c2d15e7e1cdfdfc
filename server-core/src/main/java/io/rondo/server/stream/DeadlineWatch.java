package io.rondo.server.stream;

import io.rondo.server.config.StreamSettings;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Holds a connection's client to its {@link ClientDeadline}: looks again each time the deadline
 * comes, on the connection's event loop and by the stream's clock, and once the client owes a
 * frame past it says why, for ERROR CLIENT_TIMEOUT. Event loop only.
 */
final class DeadlineWatch {

    private final ClientDeadline deadline;
    private final StreamSettings settings;
    private final NanoClock clock;
    private final ScheduledExecutorService eventLoop;
    private final Consumer<String> missed;
    private boolean stopped;

    /**
     * Starts watching a connection made now: it owes an OPEN.
     *
     * @param missed told why, once the client is late
     */
    DeadlineWatch(StreamSettings settings, NanoClock clock, ScheduledExecutorService eventLoop,
                  Consumer<String> missed) {
        this.settings = settings;
        this.clock = clock;
        this.eventLoop = eventLoop;
        this.missed = missed;
        long nowNs = clock.nanoTime();
        this.deadline = new ClientDeadline(TimeUnit.MILLISECONDS.toNanos(settings.clientTimeoutMs()),
            TimeUnit.MILLISECONDS.toNanos(settings.openTimeoutMs()), nowNs);
        lookIn(deadline.remainingNs(nowNs));
    }

    /** A whole client frame arrived. */
    void heard() {
        deadline.heard(clock.nanoTime());
    }

    /** An OPEN arrived: nothing is owed until the server answers it. */
    void opening() {
        deadline.opening();
    }

    /** The stream was accepted at {@code nowNs}. */
    void accepted(long nowNs) {
        deadline.accepted(nowNs);
    }

    /** The OPEN was refused: another may come after {@code retryAfterSeconds}. */
    void rejected(int retryAfterSeconds) {
        deadline.rejected(clock.nanoTime(), TimeUnit.SECONDS.toNanos(retryAfterSeconds));
    }

    /** The connection's stream ended: nothing more is owed. */
    void stop() {
        stopped = true;
    }

    private void lookIn(long delayNs) {
        eventLoop.schedule(this::look, Math.max(1, delayNs), TimeUnit.NANOSECONDS);
    }

    private void look() {
        if (stopped) {
            return;
        }
        long nowNs = clock.nanoTime();
        ClientDeadline.Missed late = deadline.missed(nowNs);
        if (late == ClientDeadline.Missed.OPEN) {
            missed.accept("no OPEN came within " + settings.openTimeoutMs()
                + " ms (streams.openTimeout); the connection is closed");
        } else if (late == ClientDeadline.Missed.FRAME) {
            missed.accept("the client sent no frame for " + settings.clientTimeoutMs()
                + " ms (streams.clientTimeout); the stream is ended");
        } else {
            lookIn(deadline.remainingNs(nowNs));
        }
    }
}
