package io.rondo.server.stream;

import io.netty.channel.embedded.EmbeddedChannel;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sender: earliest deadline first across clients, and never faster than a client's rate, on a manual clock. */
class StreamSenderTest {

    @Test
    void earliestDeadlineGoesFirstAndARateHoldsItsClientBack() throws Exception {
        CachedNanoClock clock = new CachedNanoClock();
        clock.update(1_000_000_000L);
        List<String> sent = new CopyOnWriteArrayList<>();
        CountDownLatch firstTwo = new CountDownLatch(2);
        CountDownLatch third = new CountDownLatch(3);
        StreamSession slowClient = new StreamSession(null, null, null, null, null);
        StreamSession otherClient = new StreamSession(null, null, null, null, null);
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        try (StreamSender sender = new StreamSender(clock)) {
            Runnable recordA2 = record(sent, "a2", firstTwo, third);
            sender.offer(new StreamSender.Packet(slowClient, channel, 3_000_000_000L, 100, 1_000,
                record(sent, "a1", firstTwo, third)));
            sender.offer(new StreamSender.Packet(otherClient, channel, 2_000_000_000L, 100, 1_000_000,
                record(sent, "b1", firstTwo, third)));
            assertTrue(sent.isEmpty(), "nothing goes to a channel that cannot take it");
            channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
            sender.wake();
            assertTrue(firstTwo.await(5, TimeUnit.SECONDS));
            assertEquals(List.of("b1", "a1"), sent, "the earlier deadline first");

            sender.offer(new StreamSender.Packet(slowClient, channel, 4_000_000_000L, 100, 1_000, recordA2));
            clock.advance(99_000_000);
            sender.wake();
            assertEquals(2, sent.size(), "100 bytes at 1000 B/s: the slow client waits 100 ms for its next");
            clock.advance(1_000_000);
            sender.wake();
            assertTrue(third.await(5, TimeUnit.SECONDS));
            assertEquals(List.of("b1", "a1", "a2"), sent);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    private static Runnable record(List<String> sent, String name, CountDownLatch... latches) {
        return () -> {
            sent.add(name);
            for (CountDownLatch latch : latches) {
                latch.countDown();
            }
        };
    }
}
