package io.rondo.server.runtime;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The Generator of papers/001 Section 6(b): the thread that turns client requests into disk
 * requests. It opens files and asks their physical positions (both may block on the file
 * system), so that neither the event loops nor the disk executors ever do; its queue is bounded
 * and a full queue refuses work at once.
 */
final class Generator implements AutoCloseable {

    private final ThreadPoolExecutor thread;

    Generator(int queueCapacity) {
        this.thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(queueCapacity),
            runnable -> {
                Thread started = new Thread(runnable, "rondo-generator");
                started.setDaemon(true);
                return started;
            });
    }

    /** Runs {@code job} on the generator thread; false if its queue is full. */
    boolean offer(Runnable job) {
        try {
            thread.execute(job);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
