package io.rondo.scheduler.exec;

import java.util.concurrent.locks.LockSupport;

/**
 * Lets the threads that hand an agent work wake the agent's parked thread. The agent binds it on
 * its own thread in {@code onStart()}, before its first duty cycle: work handed over before that
 * is found by the first cycle, work handed over after it unparks the thread. An agent stepped by
 * hand in a test is never bound, and waking it does nothing.
 */
public final class Wakeup {

    private volatile Thread thread;

    /** On the agent's thread: from now on {@link #wake()} unparks it. */
    public void bind() {
        thread = Thread.currentThread();
    }

    /** Unparks the agent's thread, if it runs on one; a thread not parked then returns from its next park at once. */
    public void wake() {
        Thread bound = thread;
        if (bound != null) {
            LockSupport.unpark(bound);
        }
    }
}
