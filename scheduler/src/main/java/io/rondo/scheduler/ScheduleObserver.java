package io.rondo.scheduler;

/**
 * What a {@link DiskScheduler} tells its driver about requests as they finish. Called on the
 * driver's thread, from inside the scheduler's methods; implementations must be quick.
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
}
