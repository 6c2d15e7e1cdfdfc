package io.rondo.server.stream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.content.model.MediaIndex;
import io.rondo.server.runtime.Chunk;
import io.rondo.server.runtime.Prepared;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One stream's DATA (papers/004 Section 3.2), from where the stream stands: its fragments, read
 * in whatever order the disks finish them, put back in order ({@link Outbox}) and handed one at a
 * time to the sender, which picks the moment (earliest deadline first among the clients that may
 * take data now, no faster than the client's rate: {@link StreamSender}); then written as a DATA
 * frame, and the fragment's buffer let go for the next read. A fragment not on the wire by its
 * deadline is a glitch. A client that falls behind what was sent is slowed, then ended
 * ({@link ClientLag}).
 *
 * <p>Every SEEK is answered, in order, by the first fragment of its own position (a DATA with
 * DISCONTINUITY) or, past the end, by END: one arriving while an earlier one waits for its answer
 * waits behind it. Nothing goes before ACCEPT ({@link #accepted}); the fragments a stream starts
 * with are due one round after it.
 *
 * <p>A stream whose fragments are drawn on a shared buffer account (ClBuf, ClBufRate:
 * {@link ClientBuffering}) has a guard: once a fragment's send at the client's declared rate and
 * the server's grace have passed since its read, it must be on the wire. If it is not because its
 * client is not taking what was written (bytes wait in the channel) or fell behind (its rate was
 * cut), the stream is ended, so the shared account's bound holds for the others; if the server
 * itself was late, it is counted and logged. Such a stream also takes the fragments already read
 * while paused: its client buffers them. Event loop only.
 */
final class StreamOutput {

    private static final Logger LOG = LoggerFactory.getLogger(StreamOutput.class);

    /** The deadline of the fragments a stream starts with: one round after ACCEPT, known once ACCEPT is sent. */
    private static final long FIRST_DEADLINE = Long.MIN_VALUE;

    private final StreamSession session;
    private final ChannelHandlerContext ctx;
    private final SessionServices services;
    private final FragmentReads reads;
    private final Prepared fragments;
    private final ClientProfile profile;
    private final StreamStats stats;
    private final ClientLag lag;
    private final ClientBuffering buffering;
    private final Outbox outbox = new Outbox();
    private final DataFrameEncoder frames = new DataFrameEncoder();
    /** The positions of SEEKs that wait for an earlier SEEK's answer, oldest first. */
    private final ArrayDeque<Long> seeksWaiting = new ArrayDeque<>();
    private long acceptNs;
    private boolean paused;
    private boolean inSender;
    private boolean closed;
    /** A SEEK was applied and its answer, the next DATA, carries DISCONTINUITY. */
    private boolean discontinuity;

    /**
     * @param session the stream, as the sender knows it
     * @param paused  whether the client has paused it already
     */
    StreamOutput(StreamSession session, ChannelHandlerContext ctx, SessionServices services, FragmentReads reads,
                 Prepared fragments, ClientProfile profile, ClientBuffering buffering, StreamStats stats,
                 boolean paused) {
        this.session = session;
        this.ctx = ctx;
        this.services = services;
        this.reads = reads;
        this.fragments = fragments;
        this.profile = profile;
        this.stats = stats;
        this.lag = new ClientLag(fragments.peakFragmentBytes());
        this.buffering = buffering;
        this.paused = paused;
    }

    /**
     * Starts the stream at {@code startNs}: the fragments from the keyframe at or before it up to
     * its own are read at once, so a new stream waits for about one IO and its own reads, whatever
     * else is streaming, and its decoder starts at a keyframe.
     */
    void start(long startNs) {
        MediaIndex media = fragments.media();
        int first = media.keyframeFragmentAt(startNs);
        outbox.moveTo(first);
        reads.start(first, media.fragmentAt(startNs), 0, FIRST_DEADLINE);
    }

    /**
     * A SEEK from the client: applied now, unless an earlier SEEK still waits for its answer; then
     * it waits behind it, so each is answered by its own position's first fragment, in order.
     */
    void seek(long positionNs) {
        if (!discontinuity && seeksWaiting.isEmpty()) {
            moveTo(positionNs);
        } else if (seeksWaiting.size() + 2 > services.settings().maxUnansweredSeeks()) {
            session.error(ErrorCode.UNEXPECTED_FRAME, "more than " + services.settings().maxUnansweredSeeks()
                + " SEEKs wait for their answer (streams.maxUnansweredSeeks)");
        } else {
            seeksWaiting.add(positionNs);
        }
    }

    /**
     * Moves the stream: what was queued is dropped, and the fragments from the keyframe at or
     * before the new position up to the position's own are read at once, as a new stream's first
     * are, due one round from now; a player so resumes after a seek in about one IO rather than up
     * to a round later, and its decoder starts at a keyframe. The first goes with DISCONTINUITY. A
     * position past the end is answered with END alone; past a growing recording's end, it is the
     * live edge.
     */
    private void moveTo(long positionNs) {
        MediaIndex media = fragments.media();
        if (!fragments.growing() && media.durationNs() > 0 && positionNs >= media.durationNs()) {
            session.end();
            return;
        }
        int first = media.keyframeFragmentAt(positionNs);
        int dropped = outbox.moveTo(first);
        discontinuity = true;
        reads.start(first, media.fragmentAt(positionNs), dropped, services.clock().nanoTime()
            + services.disks().roundNs());
    }

    /** Whether ACCEPT went: other frames may follow it. */
    boolean accepted() {
        return acceptNs != 0;
    }

    /** A live recording cut a fragment, or ended: a stream at its end may go on, or END. */
    void liveChanged() {
        pump();
    }

    /**
     * A fragment was read: a stream drawing on a shared account must have it on the wire in time,
     * after the fragments before it still to send (a read of several fragments sends them in turn).
     */
    void add(Outbox.Ready fragment) {
        Chunk held = fragment.chunk();
        if (buffering.shares() && held.pooled()) {
            long turns = 1 + Math.max(0, fragment.fragment() - outbox.nextToSend());
            ctx.executor().schedule(() -> guard(held, fragment.fragment()),
                turns * buffering.sendNs() + buffering.graceNs(), TimeUnit.NANOSECONDS);
        }
        outbox.add(fragment);
        pump();
    }

    /**
     * The guard: fragment {@code index}, in {@code held}, should be on the wire by now. If bytes
     * wait in the channel (the client is not taking them) or the client fell behind, the stream is
     * ended; if only the server was slow, that is logged.
     */
    private void guard(Chunk held, int index) {
        if (closed || held.released()) {
            return;
        }
        Channel channel = ctx.channel();
        boolean clientBehind = !channel.isWritable()
            || channel.bytesBeforeUnwritable() < channel.config().getWriteBufferHighWaterMark() || lag.rateShare() < 1;
        long allowedMs = (buffering.sendNs() + buffering.graceNs()) / 1_000_000;
        if (clientBehind) {
            services.registry().guardEnded();
            session.error(ErrorCode.CLIENT_TIMEOUT, "the client did not take fragment " + index + " within " + allowedMs
                + " ms of its read, at the " + profile.maxReceiveBytesPerSecond() + " bytes/s it declared; a stream "
                + "charged as " + buffering.mode().paperName() + " must take its data at its declared rate (declare "
                + "the rate and buffer the client really has)");
        } else {
            LOG.debug("stream {}: fragment {} still held {} ms after its read, though its client takes its data",
                session.id(), index, allowedMs);
        }
    }

    /** ACCEPT went at {@code nowNs}: fragments may follow. */
    void accepted(long nowNs) {
        acceptNs = nowNs;
        pump();
    }

    /** The client paused or resumed the stream. */
    void pause(boolean pause) {
        paused = pause;
        pump();
    }

    /** The stream ended: what waits is let go, and nothing more is sent. */
    void close() {
        closed = true;
        outbox.clear();
    }

    /**
     * A REPORT: the client has received {@code receivedBytes}. Returns why the stream is ended, if
     * the client is too far behind for too long; else null.
     */
    String report(long receivedBytes) {
        if (acceptNs == 0) {
            return null;
        }
        long behind = stats.bytesSent() - receivedBytes;
        ClientLag.Verdict verdict = lag.report(stats.bytesSent(), receivedBytes);
        if (verdict == ClientLag.Verdict.HALVE_RATE) {
            LOG.warn("stream {}: the client is {} bytes behind what was sent; halving its rate", session.id(), behind);
        }
        return verdict == ClientLag.Verdict.END ? "the client fell " + behind + " bytes behind and did not catch up"
            : null;
    }

    /** Hands the next fragment, in order, to the sender; one fragment of a stream is in its hands at a time. */
    private void pump() {
        if (acceptNs == 0 || closed || paused && !buffering.shares() || inSender) {
            return;
        }
        if (outbox.nextToSend() >= fragments.count()) {
            if (!fragments.growing() && !paused) {
                session.end();
            }
            return;
        }
        Outbox.Ready queued = outbox.takeNext();
        if (queued == null) {
            return;
        }
        Outbox.Ready next = queued.deadlineNs() == FIRST_DEADLINE
            ? new Outbox.Ready(queued.fragment(), queued.chunk(), acceptNs + services.disks().roundNs()) : queued;
        inSender = true;
        int generationNow = reads.generation();
        services.sender().offer(new StreamSender.Packet(session, ctx.channel(), next.deadlineNs(),
            next.chunk().data().remaining() + FrameCodec.DATA_PREFIX_LENGTH,
            Math.max(1, (long) (profile.maxReceiveBytesPerSecond() * lag.rateShare())),
            heldByClient -> ctx.executor().execute(() -> transmit(next, generationNow, heldByClient))));
    }

    /**
     * The sender's turn for this stream came: write the fragment, then hand over the next. Unless
     * the fragment waited for its own client, how long before its deadline it goes is what the
     * server's load left it, and admission hears it.
     */
    private void transmit(Outbox.Ready next, int generationThen, boolean heldByClient) {
        inSender = false;
        long nowNs = services.clock().nanoTime();
        if (!heldByClient && !closed) {
            services.admission().delivered(next.deadlineNs() - nowNs, nowNs);
        }
        if (closed || !reads.current(generationThen)) {
            next.chunk().release();
            if (!closed) {
                reads.released(next.deadlineNs());
                pump();
            }
            return;
        }
        int bytes = next.chunk().data().remaining();
        long startNs = fragments.fragment(next.fragment()).startNs();
        long deadlineNs = next.deadlineNs();
        stats.sent(bytes, startNs, deadlineNs, nowNs);
        ctx.writeAndFlush(frames.encode(next.fragment(), startNs, deadlineNs - acceptNs, discontinuity,
            next.chunk().data())).addListener(future -> {
                next.chunk().release();
                if (!closed) {
                    reads.released(deadlineNs);
                }
                if (future.isSuccess() && services.clock().nanoTime() - deadlineNs > 0) {
                    stats.glitch();
                }
            });
        discontinuity = false;
        outbox.sent();
        if (!seeksWaiting.isEmpty()) {
            moveTo(seeksWaiting.poll());
        }
        pump();
    }
}
