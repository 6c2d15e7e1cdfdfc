package io.rondo.server.stream;

import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.admission.Cadence;
import io.rondo.server.runtime.Prepared;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One HLS playback session (docs/hls.md): a stream like any other, admitted as an OPEN is and read
 * in the disks' rounds, whose client asks for its fragments as HTTP byte ranges of the stored copy
 * instead of being sent them. Each round reads ahead the fragment the client will ask for next, a
 * C-request, so that its part GET is answered from memory; at most two fragments are held (double
 * buffering, as admission charged).
 *
 * <p>A GET is a {@link Take} of whole fragments. Takes are answered in the order they came: one
 * that goes on from the last (the next part or segment) is served from what the rounds read; one
 * that does not (the first, a seek) starts the reads there, as an OPEN or a SEEK does, reading at
 * once up to what it asks for. Within the session's <em>lead</em> (a client may be up to that much
 * media ahead of the time since it started, the first two segments of a playlist) the fragments a
 * take asks for are read at once, as a start's are; beyond it the rounds read one a round, the rate
 * the session was admitted at. A session whose client asks for nothing for
 * {@code streams.clientTimeout} ends and frees its admission.
 *
 * <p>Owned by its event loop: every call from outside goes through it. A live recording's session
 * follows the recording's cuts: a take of the part not yet cut (a preload hint) waits for it, and so
 * does a blocking playlist reload ({@link #awaitFragments}).
 */
public final class HlsSession implements Served, FragmentReads.Stream {

    private static final Logger LOG = LoggerFactory.getLogger(HlsSession.class);

    /** A GET of fragments {@code first} to {@code last} (-1: the one not yet cut, whatever it will be). */
    private static final class Take {
        final int first;
        final HlsDelivery delivery;
        int last;
        int next;
        boolean begun;

        Take(int first, int last, HlsDelivery delivery) {
            this.first = first;
            this.last = last;
            this.next = first;
            this.delivery = delivery;
        }
    }

    private final SessionServices services;
    private final HlsSessions sessions;
    private final String key;
    private final StreamAdmission.Admitted admitted;
    private final EventExecutor loop;
    private final String client;
    private final long leadNs;
    private final StreamStats stats;
    private final boolean recording;
    private final TreeMap<Integer, Outbox.Ready> held = new TreeMap<>();
    private final ArrayDeque<Take> takes = new ArrayDeque<>();
    private final CutWaiters waiters = new CutWaiters();
    private volatile Prepared prepared;
    private FragmentReads reads;
    private AutoCloseable liveWatch;
    private ScheduledFuture<?> idleCheck;
    private volatile boolean finished;
    private volatile long lastHeardNs;
    /** The fragment the reads give next, in order: a take that starts elsewhere starts the reads again. */
    private int expected = -1;
    private long leadFromNs;
    private long leadMediaNs;

    HlsSession(SessionServices services, HlsSessions sessions, String key, StreamAdmission.Admitted admitted,
               EventExecutor loop, String client, long leadNs) {
        this.services = services;
        this.sessions = sessions;
        this.key = key;
        this.admitted = admitted;
        this.loop = loop;
        this.client = client;
        this.leadNs = leadNs;
        this.stats = new StreamStats(services.registry());
        this.recording = services.admission().recording(admitted.lease().object().id()).isPresent();
        long nowNs = services.clock().nanoTime();
        this.lastHeardNs = nowNs;
        stats.opened(nowNs, services.epochClock().time());
    }

    /** Makes the object ready to read, and watches the client's silence. On the session's loop. */
    void start() {
        MediaObject object = admitted.lease().object();
        CompletableFuture<Prepared> preparing = services.admission().recording(object.id())
            .map(recording -> services.publishing().recordings().prepare(recording))
            .orElseGet(() -> services.disks().prepare(object));
        preparing.whenCompleteAsync(this::prepared, loop);
        long checkMs = Math.max(100, services.settings().clientTimeoutMs() / 4);
        idleCheck = loop.scheduleAtFixedRate(this::checkIdle, checkMs, checkMs, TimeUnit.MILLISECONDS);
    }

    private void prepared(Prepared ready, Throwable failure) {
        if (finished) {
            return;
        }
        if (failure != null) {
            finish("cannot open " + name() + ": " + failure.getMessage());
            return;
        }
        prepared = ready;
        reads = new FragmentReads(services.disks(), ready, admitted.id(), loop, this);
        reads.cadence(admitted.cadence());
        if (ready.growing()) {
            liveWatch = ready.watch(fragment -> loop.execute(() -> cut(fragment)));
        }
        pump();
        wakeWaiters();
    }

    /** The session's key, as its URLs carry it. */
    public String key() {
        return key;
    }

    /** The object as admitted (a recording's entry at that moment). */
    public MediaObject object() {
        return admitted.lease().object();
    }

    /** The media now: a recording's grows a fragment a round. */
    public MediaIndex media() {
        Prepared ready = prepared;
        return ready == null ? object().media() : ready.media();
    }

    /** Whether the object is a recording still being written: its playlist grows, and has no end yet. */
    public boolean growing() {
        Prepared ready = prepared;
        return ready == null ? services.admission().recording(object().id()).isPresent() : ready.growing();
    }

    /**
     * Whether the object was being recorded when the session began: its playlist is a recording's
     * EVENT playlist to the end, which only grows, and ends once the recording does.
     */
    public boolean recording() {
        return recording;
    }

    /** Whether the session has ended: its URLs are then served as plain ranged GETs. */
    public boolean ended() {
        return finished;
    }

    /** The client asked for something: its silence starts again. Any thread. */
    public void heard() {
        lastHeardNs = services.clock().nanoTime();
    }

    /**
     * Answers a GET of {@code [offset, offset + length)} of the stored copy ({@code length} -1: the
     * fragment starting at {@code offset}, or the next one to be cut, a preload hint's open range) from
     * the session's reads, through {@code delivery}; false, and nothing done, if the range is not
     * whole fragments of the media this session knows, or the session has ended. Any thread.
     */
    public boolean take(long offset, long length, HlsDelivery delivery) {
        if (finished) {
            return false;
        }
        MediaIndex media = media();
        if (offset == media.init().offset() && length == media.init().length()) {
            heard();
            initSegment(delivery);
            return true;
        }
        List<Fragment> fragments = media.fragments();
        int first = FragmentRanges.startingAt(fragments, offset);
        int last;
        if (length < 0 && first >= 0) {
            last = first;
        } else if (length < 0) {
            long end = fragments.isEmpty() ? media.init().offset() + media.init().length()
                : fragments.get(fragments.size() - 1).offset() + fragments.get(fragments.size() - 1).length();
            if (offset != end || !growing()) {
                return false;
            }
            first = fragments.size();
            last = -1;
        } else {
            last = first < 0 ? -1 : FragmentRanges.endingAt(fragments, first, offset + length);
            if (last < 0) {
                return false;
            }
        }
        heard();
        Take take = new Take(first, last, delivery);
        loop.execute(() -> {
            if (finished) {
                delivery.failed("the session has ended");
                return;
            }
            takes.add(take);
            pump();
        });
        return true;
    }

    /** The init segment ({@code EXT-X-MAP}), from the server's memory of init segments once one stream read it. */
    private void initSegment(HlsDelivery delivery) {
        MediaObject object = object();
        services.initSegments().fetch(object, services.disks(), loop).whenCompleteAsync((init, failure) -> {
            if (failure != null) {
                delivery.failed("cannot read the init segment of " + name() + ": " + failure.getMessage());
                return;
            }
            delivery.begin(object.media().init().offset(), init.length, growing() ? -1 : object.size());
            delivery.piece(Unpooled.wrappedBuffer(init), () -> { });
            sessions.fromMemory();
            delivery.end();
        }, loop);
    }

    /**
     * Completes once the media holds at least {@code fragments} fragments, or the recording has
     * ended, or the session has: what a blocking playlist reload waits for. Any thread.
     */
    public CompletableFuture<Void> awaitFragments(int fragments) {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        loop.execute(() -> {
            if (finished || media().fragments().size() >= fragments || !growing()) {
                ready.complete(null);
            } else {
                waiters.add(fragments, ready);
            }
        });
        return ready;
    }

    private void wakeWaiters() {
        waiters.wake(media().fragments().size(), finished || !growing());
    }

    /** The recording cut fragment {@code fragment} (-1: it closed). */
    private void cut(int fragment) {
        if (finished) {
            return;
        }
        if (fragment >= 0) {
            reads.cut(fragment, services.clock().nanoTime());
        }
        pump();
        wakeWaiters();
    }

    /** Serves the takes in order, as far as the fragments read allow. */
    private void pump() {
        Prepared ready = prepared;
        while (ready != null && !finished && !takes.isEmpty()) {
            Take head = takes.peek();
            if (!head.begun && !begin(head, ready)) {
                return;
            }
            Outbox.Ready fragment;
            while (head.next <= head.last && (fragment = held.remove(head.next)) != null) {
                send(head, fragment, ready);
            }
            if (head.next <= head.last) {
                return;
            }
            takes.poll();
            sessions.fromMemory();
            head.delivery.end();
        }
    }

    /**
     * Starts answering {@code take}: false while the fragment it asks for is not yet cut. What it
     * asks for is read at once within the lead, and so is the fragment after it, the one the client
     * will ask for next: the rounds then read a fragment ahead of that one, so that a client asking
     * in real time finds its part read, whatever the phase of its requests against the rounds.
     */
    private boolean begin(Take take, Prepared ready) {
        if (take.first >= ready.count()) {
            return false;
        }
        if (take.last < 0) {
            take.last = take.first;
        }
        take.begun = true;
        Fragment first = ready.fragment(take.first);
        Fragment last = ready.fragment(take.last);
        long nowNs = services.clock().nanoTime();
        if (take.first != expected) {
            int dropped = held.size();
            held.values().forEach(waiting -> waiting.chunk().release());
            held.clear();
            leadFromNs = nowNs;
            leadMediaNs = first.startNs();
            reads.start(take.first, Math.min(take.last + 1, leadLast(ready, nowNs)), dropped,
                nowNs + services.disks().roundNs());
        } else {
            reads.catchUp(Math.min(take.last + 1, leadLast(ready, nowNs)), nowNs + services.disks().roundNs());
        }
        expected = take.last + 1;
        take.delivery.begin(first.offset(), last.offset() + last.length() - first.offset(),
            ready.growing() ? -1 : object().size());
        return true;
    }

    /** The last fragment the session may read at once now: those starting within its lead. */
    private int leadLast(Prepared ready, long nowNs) {
        MediaIndex media = ready.media();
        return media.fragments().isEmpty() ? 0 : media.fragmentAt(leadMediaNs + (nowNs - leadFromNs) + leadNs);
    }

    private void send(Take take, Outbox.Ready fragment, Prepared ready) {
        take.next++;
        int bytes = fragment.chunk().data().remaining();
        long nowNs = services.clock().nanoTime();
        stats.sent(bytes, ready.fragment(fragment.fragment()).startNs(), fragment.deadlineNs(), nowNs);
        take.delivery.piece(Unpooled.wrappedBuffer(fragment.chunk().data()), () -> loop.execute(() -> {
            fragment.chunk().release();
            if (!finished) {
                reads.released(services.clock().nanoTime() + services.disks().roundNs());
            }
        }));
    }

    @Override
    public void fragmentRead(Outbox.Ready fragment) {
        if (finished) {
            fragment.chunk().release();
            return;
        }
        held.put(fragment.fragment(), fragment);
        pump();
    }

    /**
     * The reads say the stream cannot go on. A read that failed ends the session; fragments held
     * untaken are no reason here (an HLS client asks when it wants): its silence ends it instead.
     */
    @Override
    public void error(ErrorCode code, String why) {
        if (code != ErrorCode.CLIENT_TIMEOUT) {
            finish(why);
        }
    }

    private void checkIdle() {
        long silentNs = services.clock().nanoTime() - lastHeardNs;
        if (!finished && takes.isEmpty() && silentNs > TimeUnit.MILLISECONDS.toNanos(
            services.settings().clientTimeoutMs())) {
            finish("the client asked for nothing for " + TimeUnit.NANOSECONDS.toMillis(silentNs) + " ms");
        }
    }

    /** Ends the session: no more reads, its admission, buffers and lease given back, its takes failed. */
    private void finish(String why) {
        if (finished) {
            return;
        }
        finished = true;
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
        Watches.stop(liveWatch);
        if (reads != null) {
            reads.close();
        }
        held.values().forEach(waiting -> waiting.chunk().release());
        held.clear();
        takes.forEach(take -> take.delivery.failed(why));
        takes.clear();
        wakeWaiters();
        sessions.ended(this);
        services.registry().remove(this);
        services.admission().release(admitted, client, why);
        LOG.info("HLS session {} (stream {}) of {} ended ({}): {}", key, admitted.id(), name(), why, stats.summary());
    }

    @Override
    public void plan(int disk, long round, long startNs, List<ContinuousRequest> into) {
        FragmentReads planned = reads;
        if (planned != null && !finished) {
            planned.plan(disk, round, startNs, into);
        }
    }

    /** An HLS session reads every round: its client, not the server, chooses when it asks. */
    @Override
    public long combinableBytesPerSecond() {
        return 0;
    }

    @Override
    public boolean recadence(Cadence next) {
        return false;
    }

    /** Ends the session on its loop; here, if the loop has stopped already (the HTTP port closed first). */
    @Override
    public void endWith(ErrorCode code, String why) {
        if (loop.isShuttingDown()) {
            finish(why);
        } else {
            loop.execute(() -> finish(why));
        }
    }

    @Override
    public long objectId() {
        return object().id();
    }

    @Override
    public long id() {
        return admitted.id();
    }

    @Override
    public CompletableFuture<StreamStatus> status() {
        return CompletableFuture.supplyAsync(() -> stats.status(admitted.id(), object(), client, "hls",
            finished ? "ended" : stats.sending() ? "playing" : "starting", null,
            admitted.buffering().mode()), loop);
    }

    private String name() {
        return object().name();
    }
}
