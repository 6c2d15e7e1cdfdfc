package io.rondo.server.admin;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One thread that does an admin resource's blocking work (file writes, ingest, catalog changes) off
 * the admin event loop, behind a queue of at most {@code capacity} tasks. The thread starts when
 * work comes and ends when it has been idle for {@link #IDLE_SECONDS}, so a worker needs no closing.
 * {@link #submit} refuses work past the queue's capacity with a 503 {@link Problem#busy} rather
 * than let the queue grow without bound; {@link #execute} is for work whose room is reserved (an
 * upload's pieces, see {@link UploadSlots}) and throws {@link RejectedExecutionException} if the
 * queue is full all the same.
 */
final class AdminWorker implements Executor {

    /** How long the thread waits for work before it ends. */
    static final long IDLE_SECONDS = 30;

    private final String name;
    private final int capacity;
    private final ThreadPoolExecutor executor;

    /**
     * @param name     the thread's name
     * @param capacity the most tasks that may wait
     */
    AdminWorker(String name, int capacity) {
        this.name = name;
        this.capacity = capacity;
        this.executor = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(capacity), runnable -> {
                Thread thread = new Thread(runnable, name);
                thread.setDaemon(true);
                return thread;
            }, new ThreadPoolExecutor.AbortPolicy());
        executor.allowCoreThreadTimeOut(true);
    }

    /**
     * The result of {@code work}, run on the worker's thread; failed with a 503 {@link Problem#busy}
     * if {@code capacity} tasks are already waiting.
     */
    <T> CompletableFuture<T> submit(Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, executor);
        } catch (RejectedExecutionException full) {
            return CompletableFuture.failedFuture(Problem.busy(name + " has " + capacity + " changes waiting, "
                + "its limit; try again shortly"));
        }
    }

    /**
     * As {@link #submit(Supplier)}, for work that may throw: its exception fails the future (a
     * {@link Problem} becomes its problem reply).
     */
    <T> CompletableFuture<T> call(Callable<T> work) {
        return submit(() -> {
            try {
                return work.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
    }

    @Override
    public void execute(Runnable work) {
        executor.execute(work);
    }
}
