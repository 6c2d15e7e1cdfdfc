package io.rondo.server.stream;

import io.netty.channel.embedded.EmbeddedChannel;
import io.rondo.server.config.StreamSettings;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sender stepped by hand on a manual clock: earliest deadline first, and never faster than a client's rate. */
class StreamSenderTest {

    private static final long SECOND = 1_000_000_000L;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final StreamSender sender = new StreamSender(clock, 16);
    private final List<String> sent = new ArrayList<>();
    private static final StreamSettings SETTINGS = StreamSettings.defaults();

    private final StreamSession slowClient = new StreamSession(unused(), null);
    private final StreamSession otherClient = new StreamSession(unused(), null);
    private final EmbeddedChannel channel = new EmbeddedChannel();

    /** A session that is only a key to the sender: nothing it works with is reached. */
    private SessionServices unused() {
        return new SessionServices(null, null, null, sender, null, SETTINGS, clock, null, Publishing.NONE, null);
    }

    @AfterEach
    void releaseChannel() {
        channel.finishAndReleaseAll();
    }

    @Test
    void nothingGoesToAChannelThatCannotTakeItAndTheEarlierDeadlineGoesFirst() {
        clock.update(SECOND);
        setWritable(false);
        sender.offer(packet(slowClient, 3 * SECOND, 1_000, "a1"));
        sender.offer(packet(otherClient, 2 * SECOND, 1_000_000, "b1"));

        assertEquals(2, sender.doWork(), "two fragments taken in");
        assertEquals(List.of(), sent, "nothing goes to a channel that cannot take it");
        assertEquals(0, sender.doWork(), "idle while the channel is full");

        setWritable(true);
        sender.doWork();
        sender.doWork();
        assertEquals(List.of("b1 (held by its client)", "a1 (held by its client)"), sent,
            "the earlier deadline first, though it was offered second; both waited for their channel");
    }

    @Test
    void aClientsRateHoldsItsNextFragmentBackUntilItsTimeAndNoLonger() {
        clock.update(SECOND);
        sender.offer(packet(slowClient, 3 * SECOND, 1_000, "a1"));
        sender.doWork();
        sender.offer(packet(slowClient, 4 * SECOND, 1_000, "a2"));

        clock.advance(99_999_999);
        sender.doWork();
        assertEquals(List.of("a1"), sent, "100 bytes at 1000 B/s: the next may go 100 ms after the first, not before");

        clock.advance(1);
        assertEquals(1, sender.doWork());
        assertEquals(List.of("a1", "a2 (held by its client)"), sent,
            "at 100 ms exactly it goes, having waited for its client's rate");
    }

    @Test
    void aRateHeldClientDoesNotHoldBackAnother() {
        clock.update(SECOND);
        sender.offer(packet(slowClient, 2 * SECOND, 1_000, "a1"));
        sender.doWork();
        sender.offer(packet(slowClient, 3 * SECOND, 1_000, "a2"));
        sender.offer(packet(otherClient, 5 * SECOND, 1_000_000, "b1"));

        sender.doWork();
        assertEquals(List.of("a1", "b1"), sent, "the later deadline goes while the earlier one's client must wait; "
            + "nothing held it back");
    }

    @Test
    void aForgottenStreamsWaitingFragmentIsHandedBackNotSent() {
        clock.update(SECOND);
        setWritable(false);
        sender.offer(packet(slowClient, 2 * SECOND, 1_000, "a1"));
        sender.forget(slowClient);

        sender.doWork();
        assertEquals(List.of("a1 (held by its client)"), sent,
            "handed back at once, so its stream can release the buffer");
        setWritable(true);
        assertEquals(0, sender.doWork(), "and never sent again");
        assertEquals(1, sent.size());
    }

    private StreamSender.Packet packet(StreamSession session, long deadlineNs, long bytesPerSecond, String name) {
        return new StreamSender.Packet(session, channel, deadlineNs, 100, bytesPerSecond,
            heldByClient -> sent.add(heldByClient ? name + " (held by its client)" : name));
    }

    private void setWritable(boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
    }
}
