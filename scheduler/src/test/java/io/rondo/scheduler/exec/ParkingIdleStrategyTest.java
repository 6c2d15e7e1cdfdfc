package io.rondo.scheduler.exec;

import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An idle agent parks until its deadline, and another thread's wake-up ends the park at once. */
class ParkingIdleStrategyTest {

    @Test
    void aWakeUpEndsAParkThatWouldHaveLastedAMinute() throws InterruptedException {
        CachedNanoClock clock = new CachedNanoClock();
        ParkingIdleStrategy idle = new ParkingIdleStrategy(clock, () -> Long.MAX_VALUE, 60_000_000_000L, 0);
        Wakeup wakeup = new Wakeup();
        AtomicBoolean bound = new AtomicBoolean();
        AtomicBoolean returned = new AtomicBoolean();
        Thread agent = new Thread(() -> {
            wakeup.bind();
            bound.set(true);
            idle.idle(0);
            returned.set(true);
        }, "parked-agent");
        agent.setDaemon(true);
        agent.start();
        await("the agent bound its wake-up").atMost(Duration.ofSeconds(10)).untilTrue(bound);

        wakeup.wake();

        await("the parked agent returns after the wake-up").atMost(Duration.ofSeconds(10)).untilTrue(returned);
        agent.join();
    }

    @Test
    void anAgentWithWorkDoesNotPark() {
        CachedNanoClock clock = new CachedNanoClock();
        ParkingIdleStrategy idle = new ParkingIdleStrategy(clock, () -> Long.MAX_VALUE, 60_000_000_000L, 0);
        long before = System.nanoTime();
        idle.idle(1);
        assertTrue(System.nanoTime() - before < 30_000_000_000L, "work done: the strategy returned without a park");
    }

    @Test
    void aBadSettingIsRefused() {
        CachedNanoClock clock = new CachedNanoClock();
        assertThrows(IllegalArgumentException.class, () -> new ParkingIdleStrategy(clock, () -> 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ParkingIdleStrategy(clock, () -> 0, 1, -1));
    }
}
