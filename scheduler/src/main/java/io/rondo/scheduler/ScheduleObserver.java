package io.rondo.scheduler;

/**
 * What a {@link DiskScheduler} tells its driver about requests as they finish and rounds as they
 * end. Called on the driver's thread, from inside the scheduler's methods; implementations must
 * be quick, and hand anything slow (a metrics registry, an event stream) to another thread.
 */
public interface ScheduleObserver {

    /** Ignores everything. */
    ScheduleObserver NONE = new ScheduleObserver() {
    };

    /** A D-request was read; its response time is {@code nowNs - request.arrivalNs()}. */
    default void discreteCompleted(DiscreteRequest request, long nowNs) {
    }

    /** A C-request was read before its deadline. */
    default void continuousCompleted(ContinuousRequest request, long nowNs) {
    }

    /**
     * A C-request missed its deadline: read after it ({@code discarded} false), or still unread
     * when its round ended and dropped ({@code discarded} true).
     */
    default void glitch(ContinuousRequest request, long nowNs, boolean discarded) {
    }

    /**
     * A round ended: called from {@link DiskScheduler#startRound} for the round before, once its
     * unread C-requests were dropped, so the summary counts them. Once for every round that ends.
     */
    default void roundEnded(RoundSummary summary) {
    }
}
