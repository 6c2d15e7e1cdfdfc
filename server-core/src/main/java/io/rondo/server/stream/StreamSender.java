package io.rondo.server.stream;

import io.netty.channel.Channel;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The sender (papers/004 Section 3.2, the Xmt-Server; papers/001's Sender): one thread for every
 * stream, sending the fragment of earliest deadline among those whose clients may take one now.
 * It is not work-conserving: a client gets no more than its profile's maximum rate even when the
 * link is idle, and a client whose channel is not writable is passed over until it is.
 *
 * <p>A stream hands over one fragment at a time, in order; the sender decides when, and the
 * stream writes it on its own event loop.
 */
final class StreamSender implements AutoCloseable {

    /** The longest the sender sleeps with work waiting, in case a wake-up is missed. */
    private static final long MAX_PARK_NS = 5_000_000;

    /** One fragment waiting to go: whose, by when, how big, and what sends it. */
    record Packet(StreamSession session, Channel channel, long deadlineNs, int bytes, long bytesPerSecond,
                  Runnable transmit) {
    }

    private final NanoClock clock;
    private final List<Packet> waiting = new ArrayList<>();
    private final Map<StreamSession, Long> nextAllowedNs = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    StreamSender(NanoClock clock) {
        this.clock = clock;
        this.thread = new Thread(this::run, "rondo-sender");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** A stream's next fragment is ready to send. */
    void offer(Packet packet) {
        synchronized (waiting) {
            waiting.add(packet);
        }
        wake();
    }

    /** Something changed (a channel became writable): look again. */
    void wake() {
        LockSupport.unpark(thread);
    }

    /**
     * A stream ended: its waiting fragment is handed back at once (the stream, ended, releases its
     * buffer instead of sending it), and its rate state is dropped.
     */
    void forget(StreamSession session) {
        List<Packet> dropped = new ArrayList<>();
        synchronized (waiting) {
            waiting.removeIf(packet -> packet.session() == session && dropped.add(packet));
        }
        nextAllowedNs.remove(session);
        dropped.forEach(packet -> packet.transmit().run());
    }

    private void run() {
        while (running) {
            long nowNs = clock.nanoTime();
            long sleepNs = MAX_PARK_NS;
            Packet chosen = null;
            synchronized (waiting) {
                waiting.sort(Comparator.comparingLong(Packet::deadlineNs));
                for (int i = 0; i < waiting.size(); i++) {
                    Packet packet = waiting.get(i);
                    if (!packet.channel().isWritable()) {
                        continue;
                    }
                    long allowedNs = nextAllowedNs.getOrDefault(packet.session(), nowNs);
                    if (allowedNs - nowNs <= 0) {
                        chosen = waiting.remove(i);
                        break;
                    }
                    sleepNs = Math.min(sleepNs, allowedNs - nowNs);
                }
            }
            if (chosen != null) {
                long allowedNs = nextAllowedNs.getOrDefault(chosen.session(), nowNs);
                nextAllowedNs.put(chosen.session(), Math.max(nowNs, allowedNs)
                    + (long) (chosen.bytes() * 1e9 / Math.max(1, chosen.bytesPerSecond())));
                chosen.transmit().run();
            } else {
                LockSupport.parkNanos(this, sleepNs);
            }
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
