package io.rondo.scheduler.exec;

import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    /** Every park is sized from the agent's deadline; a strategy that never asks for it has not parked. */
    @Test
    void anAgentWithWorkDoesNotPark() {
        CachedNanoClock clock = new CachedNanoClock();
        AtomicInteger deadlineAsked = new AtomicInteger();
        ParkingIdleStrategy idle = new ParkingIdleStrategy(clock, () -> {
            deadlineAsked.incrementAndGet();
            return clock.nanoTime();
        }, 60_000_000_000L, 0);

        idle.idle(1);

        assertEquals(0, deadlineAsked.get(), "work done: the strategy returned without sizing a park");
        idle.idle(0);
        assertEquals(1, deadlineAsked.get(), "no work: it asked when to park until (now: a 1 ns park)");
    }

    @Test
    void aBadSettingIsRefused() {
        CachedNanoClock clock = new CachedNanoClock();
        assertThrows(IllegalArgumentException.class, () -> new ParkingIdleStrategy(clock, () -> 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ParkingIdleStrategy(clock, () -> 0, 1, -1));
    }
}
