package io.rondo.server.admin;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A worker's queue is bounded: work past it is refused with 503 busy, and taken again once there is room. */
class AdminWorkerTest {

    @Test
    void workPastTheQueueIsRefusedAsBusyAndTakenOnceThereIsRoom() throws Exception {
        AdminWorker worker = new AdminWorker("rondo-test-worker", 2);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> busy = worker.submit(() -> {
            running.countDown();
            await(release);
            return "first";
        });
        assertTrue(running.await(10, TimeUnit.SECONDS), "the worker's thread runs the first task");
        CompletableFuture<String> second = worker.submit(() -> "second");
        CompletableFuture<String> third = worker.submit(() -> "third");

        CompletableFuture<String> refused = worker.submit(() -> "fourth");

        ExecutionException failure = assertThrows(ExecutionException.class, () -> refused.get(10, TimeUnit.SECONDS));
        Problem problem = assertInstanceOf(Problem.class, failure.getCause());
        assertEquals(503, problem.status());
        assertEquals("busy", problem.code());
        assertEquals("1", problem.headers().get("Retry-After"));
        assertTrue(problem.getMessage().contains("rondo-test-worker"), problem.getMessage());
        release.countDown();
        assertEquals("first", busy.get(10, TimeUnit.SECONDS));
        assertEquals("second", second.get(10, TimeUnit.SECONDS));
        assertEquals("third", third.get(10, TimeUnit.SECONDS));
        assertEquals("again", worker.submit(() -> "again").get(10, TimeUnit.SECONDS));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
