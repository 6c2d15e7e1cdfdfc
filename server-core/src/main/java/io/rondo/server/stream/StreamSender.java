package io.rondo.server.stream;

import io.netty.channel.Channel;
import io.rondo.scheduler.exec.ParkingIdleStrategy;
import io.rondo.scheduler.exec.Wakeup;
import org.agrona.collections.Object2LongHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The sender (papers/004 Section 3.2, the Xmt-Server; papers/001's Sender): one agent for every
 * stream, sending the fragment of earliest deadline among those whose clients may take one now.
 * It is not work-conserving: a client gets no more than its profile's maximum rate even when the
 * link is idle, and a client whose channel is not writable is passed over until it is.
 *
 * <p>A stream hands over one fragment at a time, in order ({@link #offer}); the sender decides
 * when, and the stream writes it on its own event loop. Streams talk to the sender only through
 * its command queue ({@link #offer}, {@link #forget}: its proxy) and {@link #wake}; what waits,
 * and when each client may next take data, belong to the sender's thread alone. A stream's
 * commands keep their order, so a fragment offered before the stream is forgotten is handed back.
 */
final class StreamSender implements Agent {

    /** The longest the sender sleeps with work waiting, in case a wake-up is missed. */
    private static final long MAX_PARK_NS = 5_000_000;

    /**
     * The most streams at once the command queue is sized for: far more than admission lets any
     * disk or link carry, so an offer finds room (a full queue is a fault, and says so).
     */
    static final int MAX_STREAMS = 32_768;

    /** Commands one stream can have in the queue at once: its fragment, and its end. */
    private static final int COMMANDS_PER_STREAM = 2;

    /** What a stream asks of the sender. */
    sealed interface Command permits Packet, Forget {
    }

    /** One fragment waiting to go: whose, by when, how big, and what sends it. */
    record Packet(StreamSession session, Channel channel, long deadlineNs, int bytes, long bytesPerSecond,
                  Transmission transmit) implements Command {
    }

    /** What sends a fragment when its turn comes (or hands it back when its stream is forgotten). */
    @FunctionalInterface
    interface Transmission {

        /**
         * @param heldByClient whether the fragment waited for its own client: a channel that could
         *                     not take more, or the client's rate; then how late it goes says
         *                     nothing of the server's load
         */
        void run(boolean heldByClient);
    }

    /** A stream ended: hand back its waiting fragment and drop its rate state. */
    private record Forget(StreamSession session) implements Command {
    }

    private final NanoClock clock;
    private final ManyToOneConcurrentArrayQueue<Command> commands;
    private final Wakeup wakeup = new Wakeup();
    /** Waiting fragments in deadline order (earliest first; equal deadlines in arrival order). */
    private final List<Packet> waiting = new ArrayList<>();
    private final Object2LongHashMap<StreamSession> nextAllowedNs = new Object2LongHashMap<>(Long.MIN_VALUE);
    /** Waiting fragments passed over at least once for their own client: its channel was full, or its rate. */
    private final Set<Packet> heldByClient = Collections.newSetFromMap(new IdentityHashMap<>());
    private long wakeUpNs = Long.MAX_VALUE;

    /**
     * @param clock      the clock, read once per duty cycle
     * @param maxStreams the most streams served at once: the command queue holds all their commands
     */
    StreamSender(NanoClock clock, int maxStreams) {
        this.clock = clock;
        this.commands = new ManyToOneConcurrentArrayQueue<>(Math.max(16, COMMANDS_PER_STREAM * maxStreams));
    }

    /** A stream's next fragment is ready to send. */
    void offer(Packet packet) {
        enqueue(packet);
    }

    /**
     * A stream ended: its waiting fragment is handed back (the stream, ended, releases its buffer
     * instead of sending it), and its rate state is dropped.
     */
    void forget(StreamSession session) {
        enqueue(new Forget(session));
    }

    /** Something changed (a channel became writable): look again. */
    void wake() {
        wakeup.wake();
    }

    private void enqueue(Command command) {
        if (!commands.offer(command)) {
            throw new IllegalStateException("the sender's command queue is full: more streams than "
                + commands.capacity() / COMMANDS_PER_STREAM + " at once");
        }
        wakeup.wake();
    }

    @Override
    public String roleName() {
        return "rondo-sender";
    }

    @Override
    public void onStart() {
        wakeup.bind();
    }

    /** How the sender's thread waits: until a rate-held client may take data, or until woken. */
    IdleStrategy idleStrategy() {
        return new ParkingIdleStrategy(clock, () -> wakeUpNs, MAX_PARK_NS, 0);
    }

    /**
     * One duty cycle: take the streams' commands, then send the waiting fragment of earliest
     * deadline whose client may take it now. Returns the amount of work done, 0 when idle.
     */
    @Override
    public int doWork() {
        int work = commands.drain(this::onCommand);
        long nowNs = clock.nanoTime();
        wakeUpNs = Long.MAX_VALUE;
        for (int i = 0; i < waiting.size(); i++) {
            Packet packet = waiting.get(i);
            if (!packet.channel().isWritable()) {
                heldByClient.add(packet);
                continue;
            }
            long allowedNs = nextAllowedNs.getValue(packet.session());
            if (allowedNs == Long.MIN_VALUE || allowedNs - nowNs <= 0) {
                waiting.remove(i);
                long from = allowedNs == Long.MIN_VALUE ? nowNs : Math.max(nowNs, allowedNs);
                nextAllowedNs.put(packet.session(),
                    from + (long) (packet.bytes() * 1e9 / Math.max(1, packet.bytesPerSecond())));
                packet.transmit().run(heldByClient.remove(packet));
                return work + 1;
            }
            heldByClient.add(packet);
            if (wakeUpNs == Long.MAX_VALUE || allowedNs - wakeUpNs < 0) {
                wakeUpNs = allowedNs;
            }
        }
        return work;
    }

    private void onCommand(Command command) {
        if (command instanceof Packet packet) {
            int at = waiting.size();
            while (at > 0 && waiting.get(at - 1).deadlineNs() - packet.deadlineNs() > 0) {
                at--;
            }
            waiting.add(at, packet);
        } else if (command instanceof Forget forget) {
            nextAllowedNs.removeKey(forget.session());
            for (int i = waiting.size() - 1; i >= 0; i--) {
                if (waiting.get(i).session() == forget.session()) {
                    Packet packet = waiting.remove(i);
                    heldByClient.remove(packet);
                    packet.transmit().run(true);
                }
            }
        }
    }
}
