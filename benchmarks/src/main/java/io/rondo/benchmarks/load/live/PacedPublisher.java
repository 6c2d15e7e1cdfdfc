package io.rondo.benchmarks.load.live;

import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.load.paced.PacedReader;
import io.rondo.client.Publisher;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.Publish;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One recording published to Rondo in real time: a {@link LiveFeed}'s slices sent each when due,
 * as {@code ffmpeg -re} feeds {@code rondo record}, until the run's end, then CLOSE and the last
 * DURABLE. {@link #poll} turns the server's DURABLE frames into write latencies: for every fragment
 * newly durable, the DURABLE's arrival minus when the bytes that completed the fragment were sent;
 * one arriving later than {@code lateAfterNs} is counted late (a write round missed costs a round).
 * Its thread sends; a {@link DurableWatch} polls.
 */
public final class PacedPublisher implements Runnable {

    /** How long CLOSE may take to bring the last DURABLE and END. */
    private static final Duration FINISH_LIMIT = Duration.ofSeconds(30);

    private final StreamClient client;
    private final Publisher publisher;
    private final NanoClock clock;
    private final DelayLog durability;
    private final long lateAfterNs;
    private volatile LiveFeed feed;
    private volatile AtomicLongArray sliceSentNs;
    private volatile long startNs;
    private volatile long endNs;
    private volatile int slicesSent;
    private volatile long closeSentNs;
    private volatile String failure;
    private int seenFragments;
    private long lateFragments;

    private PacedPublisher(StreamClient client, Publisher publisher, NanoClock clock, DelayLog durability,
                           long lateAfterNs) {
        this.client = client;
        this.publisher = publisher;
        this.clock = clock;
        this.durability = durability;
        this.lateAfterNs = lateAfterNs;
    }

    /**
     * Publishes {@code name} on {@code host:port} at a declared peak of {@code peakBitsPerSecond},
     * as fragmented MP4, once the server accepted it.
     *
     * @param durability where each fragment's send-to-DURABLE latency goes
     * @param lateAfterNs a fragment durable later than this after its bytes were sent is late
     * @throws StreamRejectedException if the server refused the recording (its reason inside)
     * @throws IOException if the connection failed or the server answered ERROR
     */
    public static PacedPublisher publish(String host, int port, String name, long peakBitsPerSecond, String token,
                                         NanoClock clock, DelayLog durability, long lateAfterNs)
        throws IOException, StreamRejectedException {
        StreamClient client = StreamClient.connect(host, port);
        try {
            Publisher publisher = client.publish(name, Publish.MP4, peakBitsPerSecond, token);
            return new PacedPublisher(client, publisher, clock, durability, lateAfterNs);
        } catch (IOException | StreamRejectedException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** The round the server cuts fragments by, from its ACCEPT. */
    public long roundNs() {
        return publisher.accept().fragmentDurationNs();
    }

    /**
     * Sends {@code slices} from {@code firstNs} until {@code lastNs} (or the clip's end); call before
     * the thread starts. The feed must be cut by {@link #roundNs()}.
     */
    public void schedule(LiveFeed slices, long firstNs, long lastNs) {
        this.sliceSentNs = new AtomicLongArray(slices.slices());
        this.startNs = firstNs;
        this.endNs = lastNs;
        this.feed = slices;
    }

    @Override
    public void run() {
        PacedReader.Sleeper sleeper = PacedReader.parkingOn(clock::nanoTime);
        try {
            for (int i = 0; i < feed.slices() && startNs + feed.sliceAtNs(i) - endNs < 0; i++) {
                sleeper.sleepUntil(startNs + feed.sliceAtNs(i));
                ByteBuffer slice = feed.slice(i);
                publisher.send(slice.array(), slice.arrayOffset() + slice.position(), slice.remaining());
                sliceSentNs.set(i, clock.nanoTime());
                slicesSent = i + 1;
            }
            closeSentNs = clock.nanoTime();
            publisher.finish(FINISH_LIMIT);
            poll(clock.nanoTime());
        } catch (StreamErrorException e) {
            failure = "ERROR " + e.error().code() + ": " + e.error().message();
        } catch (IOException e) {
            failure = e.toString();
        } catch (InterruptedException e) {
            failure = "interrupted";
            Thread.currentThread().interrupt();
        } finally {
            try {
                client.close();
            } catch (IOException e) {
                failure = failure == null ? "close: " + e.getMessage() : failure;
            }
        }
    }

    /** Takes the newest DURABLE, seen at {@code nowNs}: each fragment it newly makes durable is timed. */
    public synchronized void poll(long nowNs) {
        Durable durable = publisher.lastDurable();
        if (durable == null || feed == null) {
            return;
        }
        int upTo = (int) Math.min(durable.fragments(), feed.fragments());
        for (; seenFragments < upTo; seenFragments++) {
            long sentNs = fragmentSentNs(seenFragments);
            if (sentNs == 0) {
                continue;
            }
            long latencyNs = nowNs - sentNs;
            durability.record(latencyNs, 0);
            if (latencyNs > lateAfterNs) {
                lateFragments++;
            }
        }
    }

    /**
     * When the bytes that complete the {@code fragment}-th fragment (from 0) were sent, on the
     * publisher's clock: the slice that completes it, or CLOSE for the last; 0 if they have not been
     * sent yet, or the feed makes no such fragment. A viewer's DATA of that fragment arriving at
     * {@code t} is {@code t} minus this behind live.
     */
    public long fragmentSentNs(long fragment) {
        LiveFeed slices = feed;
        if (slices == null || fragment < 0 || fragment >= slices.fragments()) {
            return 0;
        }
        int slice = slices.doneBySlice((int) fragment);
        return slice < slicesSent ? sliceSentNs.get(slice) : closeSentNs;
    }

    /** Fragments whose DURABLE came later than the limit. */
    public synchronized long lateFragments() {
        return lateFragments;
    }

    /** Fragments the server said are durable. */
    public long durableFragments() {
        Durable durable = publisher.lastDurable();
        return durable == null ? 0 : durable.fragments();
    }

    /** The recording's media time durable so far: where a viewer at its live edge opens. */
    public long durableNs() {
        Durable durable = publisher.lastDurable();
        return durable == null ? 0 : durable.durableNs();
    }

    /** MEDIA bytes sent. */
    public long bytesSent() {
        return publisher.bytesSent();
    }

    /** Why the recording ended other than by CLOSE and END; null if it did not. */
    public String failure() {
        return failure;
    }
}
