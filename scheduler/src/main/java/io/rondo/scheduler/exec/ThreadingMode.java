package io.rondo.scheduler.exec;

/**
 * How the agents of a running server get their duty cycles (Aeron's {@code ThreadingMode}).
 */
public enum ThreadingMode {

    /** Each agent on a thread of its own, idling between duty cycles as its idle strategy says. */
    DEDICATED,

    /**
     * No thread of Rondo's own: the caller steps every agent ({@link AgentThreads#invoke()}), on a
     * clock it steps too, so that a test walks a round, a read and a send one duty cycle at a time.
     */
    INVOKER
}
