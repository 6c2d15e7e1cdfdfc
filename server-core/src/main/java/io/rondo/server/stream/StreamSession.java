package io.rondo.server.stream;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.Live;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Pause;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Publish;
import io.rondo.client.protocol.Redirect;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.Report;
import io.rondo.client.protocol.Resume;
import io.rondo.client.protocol.Seek;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.admission.Cadence;
import io.rondo.server.runtime.Prepared;
import io.rondo.server.runtime.QueueFullException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One client's stream (papers/001 Section 6, papers/004 Section 3): the stream protocol's state
 * machine. A connection owes a whole OPEN in time ({@link DeadlineWatch}); OPEN is judged
 * ({@link StreamAdmission}) and answered with REJECT, or, once the object is ready, with ACCEPT and
 * the init segment; then its fragments are read ({@link FragmentReads}) and sent as DATA
 * ({@link StreamOutput}) until END after the last, a CLOSE, an ERROR, or the client leaves. PAUSE,
 * RESUME, SEEK and REPORT steer the output meanwhile.
 *
 * <p>Owned by the channel's event loop; the round clock reaches the stream only through
 * {@link #plan}, which asks its {@link FragmentReads} (thread-safe) for the C-request.
 */
final class StreamSession extends SimpleChannelInboundHandler<Frame> implements FragmentReads.Stream, Served {

    private static final Logger LOG = LoggerFactory.getLogger(StreamSession.class);

    private final SessionServices services;
    private final StreamStats stats;
    /** The object the connection's URL names (WebSocket {@code /stream/NAME}), which OPEN must name; or null. */
    private final String urlObject;

    private ChannelHandlerContext ctx;
    private volatile StreamAdmission.Admitted admitted;
    /** How often the stream reads, once changed since admission: event loop only. */
    private Cadence cadence;
    private volatile FragmentReads reads;
    /** The bytes a second a stored object plays at, once it is ready; 0 for a stream that must read every round. */
    private volatile long combinableBytesPerSecond;
    private volatile long peakFragmentBytes;
    private StreamOutput output;
    private MediaIndex media;
    private ClientProfile profile;
    private DeadlineWatch deadline;
    private volatile boolean finished;
    private boolean paused;
    /** A live recording's news of each fragment cut, while this stream watches it. */
    private AutoCloseable liveWatch;
    private Prepared fragments;
    /** Whether ACCEPT said the object was being recorded: LIVE frames go, the last one ENDED. */
    private boolean live;
    /** Where the stream starts: its first reads go at once, or, drawing on a shared account, at ACCEPT. */
    private long startNs;

    StreamSession(SessionServices services, String urlObject) {
        this.services = services;
        this.urlObject = urlObject;
        this.stats = new StreamStats(services.registry());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
        deadline = new DeadlineWatch(services.settings(), services.clock(), ctx.executor(),
            why -> error(ErrorCode.CLIENT_TIMEOUT, why));
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, Frame frame) {
        if (finished) {
            return;
        }
        deadline.heard();
        if (frame instanceof Open open) {
            open(open);
        } else if (frame instanceof Publish publish && admitted == null) {
            deadline.stop();
            finished = true;
            PublishSession publisher = new PublishSession(services);
            ctx.pipeline().replace(this, "publish", publisher);
            publisher.publish(publish);
        } else if (admitted == null) {
            error(ErrorCode.UNEXPECTED_FRAME, "OPEN a stream first");
        } else if (frame instanceof Pause || frame instanceof Resume) {
            paused = frame instanceof Pause;
            if (reads != null) {
                reads.pause(paused);
                output.pause(paused);
            }
        } else if (frame instanceof Seek seek && reads != null) {
            output.seek(seek.fromLive() ? fromLive(fragments.media().durationNs(), seek.positionNs())
                : seek.positionNs());
        } else if (frame instanceof Close) {
            end();
        } else if (frame instanceof Report report) {
            report(report);
        } else {
            error(ErrorCode.UNEXPECTED_FRAME, "a client does not send " + frame.getClass().getSimpleName());
        }
    }

    private void open(Open open) {
        if (admitted != null) {
            error(ErrorCode.UNEXPECTED_FRAME, "this connection has a stream already");
            return;
        }
        if (urlObject != null && !urlObject.equals(open.objectName())) {
            error(ErrorCode.UNEXPECTED_FRAME, "this connection's URL names " + urlObject + " but its OPEN names "
                + open.objectName() + ": OPEN the object the URL names, or connect to /stream");
            return;
        }
        deadline.opening();
        stats.opened(services.clock().nanoTime(), services.epochClock().time());
        StreamAdmission.Answer answer = services.admission().open(open, client());
        if (answer instanceof StreamAdmission.Refused no) {
            Optional<Redirect> away = services.redirects().of(open, no, webSocket(), client());
            away.ifPresentOrElse(this::redirect, () -> reject(no));
            return;
        }
        admitted = (StreamAdmission.Admitted) answer;
        media = admitted.lease().object().media();
        profile = open.profile();
        MediaObject object = admitted.lease().object();
        CompletableFuture<Prepared> preparing = services.admission().recording(object.id())
            .map(recording -> services.publishing().recordings().prepare(recording))
            .orElseGet(() -> services.disks().prepare(object));
        preparing.whenCompleteAsync((ready, failure) -> prepared(ready, failure,
            open.fromLive() ? fromLive(ready == null ? 0 : ready.media().durationNs(), open.startNs())
                : open.startNs()), ctx.executor());
    }

    /**
     * The object is ready: the reads from the keyframe at or before the start go to the disk at
     * once, beside the init segment's (unless an earlier stream of the same object left it in
     * memory), so a new stream waits for about one IO and its own reads, whatever else is streaming.
     * A stream drawing on a shared buffer account reads once ACCEPT is sent instead: its fragments
     * may not wait for an init segment, since their hold is bounded.
     */
    private void prepared(Prepared ready, Throwable failure, long startNs) {
        if (finished) {
            return;
        }
        if (failure != null) {
            failed(failure, "cannot open " + name() + ": " + failure.getMessage());
            return;
        }
        fragments = ready;
        reads = new FragmentReads(services.disks(), ready, admitted.id(), ctx.executor(), this);
        reads.cadence(cadence == null ? admitted.cadence() : cadence);
        if (!ready.growing()) {
            peakFragmentBytes = ready.peakFragmentBytes();
            combinableBytesPerSecond = Math.max(1, ready.media().averageBitRate() / 8);
        }
        output = new StreamOutput(this, ctx, services, reads, ready, profile, admitted.buffering(), stats, paused);
        if (ready.growing()) {
            liveWatch = ready.watch(fragment -> ctx.executor().execute(() -> cut(fragment)));
        }
        this.startNs = startNs;
        if (!admitted.buffering().shares()) {
            output.start(startNs);
        }
        // On the event loop, as every state change: a failed read completes on the disk's thread.
        services.initSegments().fetch(ready.object(), services.disks(), ctx.executor())
            .whenCompleteAsync((init, error) -> {
                if (!finished && error != null) {
                    failed(error, "cannot read the init segment of " + name());
                } else if (!finished) {
                    accept(init);
                }
            }, ctx.executor());
    }

    private void accept(byte[] init) {
        long nowNs = services.clock().nanoTime();
        deadline.accepted(nowNs);
        live = fragments.growing();
        write(new Accept(admitted.id(), services.disks().roundNs(), media.averageBitRate(), media.codecs(),
            ByteBuffer.wrap(init), live));
        if (live) {
            write(new Live(fragments.media().durationNs(), fragments.durableNs(), !fragments.growing()));
        }
        services.registry().add(this);
        if (admitted.buffering().shares()) {
            output.start(startNs);
        }
        output.accepted(nowNs);
    }

    /**
     * A stream not yet accepted could not start: if the server's queues were full it is refused,
     * as admission refuses, with a retry-after; else ERROR READ_FAILED with {@code message}. Either
     * way it ends, and everything it held is freed.
     */
    private void failed(Throwable failure, String message) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (!(cause instanceof QueueFullException)) {
            error(ErrorCode.READ_FAILED, message);
            return;
        }
        reject(services.admission().busy(name(), client(), cause.getMessage()));
        finish("refused: " + cause.getMessage());
        closeSoon();
    }

    /**
     * The live recording this stream watches cut fragment {@code fragment} (-1: it closed): a
     * stream waiting at the live edge takes it from memory now; one at the end of a closed
     * recording ENDs.
     */
    private void cut(int fragment) {
        if (finished) {
            return;
        }
        if (fragment >= 0) {
            reads.cut(fragment, services.clock().nanoTime());
        }
        if (output.accepted() && fragment >= 0) {
            write(new Live(fragments.media().durationNs(), fragments.durableNs(), false));
        }
        output.liveChanged();
    }

    /** The position {@code behindNs} behind the live edge (a stored object's end), never before the start. */
    private static long fromLive(long edgeNs, long behindNs) {
        return Math.max(0, edgeNs - behindNs);
    }

    /**
     * The bytes a second the stream plays at, if its cadence may change: it reads a stored object
     * and has not ended; else 0 (a recording's viewer stays at one read a round).
     */
    @Override
    public long combinableBytesPerSecond() {
        return finished ? 0 : combinableBytesPerSecond;
    }

    /**
     * Gives the stream a new cadence: its buffers resized for one read of it first; false, and
     * nothing changed, if the buffer pool cannot hold them or the stream has ended. Any thread.
     */
    @Override
    public boolean recadence(Cadence next) {
        StreamAdmission.Admitted held = admitted;
        if (combinableBytesPerSecond() == 0 || held == null
            || !services.admission().recadence(held.id(), next, peakFragmentBytes, held.buffering())) {
            return false;
        }
        cadence(next);
        return true;
    }

    /**
     * From the next round on, the stream reads at {@code next} (stream combination or a new time
     * cycle). Any thread; applied on the stream's event loop.
     */
    private void cadence(Cadence next) {
        ctx.executor().execute(() -> {
            cadence = next;
            if (reads != null) {
                reads.cadence(next);
            }
        });
    }

    /** The round clock asks: this stream's C-requests on {@code disk} this round, added to {@code into}. */
    @Override
    public void plan(int disk, long round, long startNs, List<ContinuousRequest> into) {
        FragmentReads planned = reads;
        if (planned != null) {
            planned.plan(disk, round, startNs, into);
        }
    }

    @Override
    public void fragmentRead(Outbox.Ready fragment) {
        output.add(fragment);
    }

    /** A client's REPORT: see {@link ClientLag}. */
    private void report(Report report) {
        String why = output == null ? null : output.report(report.bytesReceived());
        if (why != null) {
            error(ErrorCode.CLIENT_TIMEOUT, why);
        }
    }

    private void reject(StreamAdmission.Refused no) {
        deadline.rejected(no.retryAfterSeconds());
        write(new Reject(no.reason(), no.retryAfterSeconds(), no.message()));
    }

    /** Another node serves this OPEN: REDIRECT names it, then the connection closes. */
    private void redirect(Redirect away) {
        write(away);
        finish("redirected to " + away.target());
        closeSoon();
    }

    /** The stream is over (its last fragment, a CLOSE, a SEEK past the end): END, then the connection closes. */
    void end() {
        if (live) {
            write(new Live(fragments.media().durationNs(), fragments.durableNs(), !fragments.growing()));
        }
        write(new End());
        finish(null);
        closeSoon();
    }

    /** The stream cannot go on: ERROR, then the connection closes. */
    @Override
    public void error(ErrorCode code, String message) {
        if (finished) {
            return;
        }
        write(new ErrorFrame(code.code(), message));
        finish(message);
        closeSoon();
    }

    private void closeSoon() {
        ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
    }

    private void write(Frame frame) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(FrameCodec.encode(frame)))
            .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    /** Ends the stream: no more reads, admission released, buffers and lease returned. */
    private void finish(String why) {
        if (finished) {
            return;
        }
        finished = true;
        deadline.stop();
        Watches.stop(liveWatch);
        if (reads != null) {
            reads.close();
            output.close();
        }
        services.registry().remove(this);
        services.sender().forget(this);
        if (admitted != null) {
            services.admission().release(admitted, client(), why);
            LOG.info("stream {} of {} ended{}: {}", admitted.id(), name(), why == null ? "" : " (" + why + ")",
                stats.summary());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext context) throws Exception {
        services.sender().wake();
        super.channelWritabilityChanged(context);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        finish("the client left");
        super.channelInactive(context);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (cause instanceof DecoderException && cause.getCause() instanceof ProtocolException protocol) {
            error(protocol.code(), protocol.getMessage());
        } else {
            finish(cause.getMessage());
            context.close();
        }
    }

    /** Ends the stream from any thread with ERROR {@code code}: the server is stopping, or an operator ends it. */
    @Override
    public void endWith(ErrorCode code, String why) {
        ctx.executor().execute(() -> error(code, why));
    }

    /** The catalog id of the object this stream reads (a rename keeps it), or -1 before it is admitted. */
    @Override
    public long objectId() {
        StreamAdmission.Admitted held = admitted;
        return held == null ? -1 : held.lease().object().id();
    }

    /** The stream id ACCEPT gave, or 0 before it is admitted. */
    @Override
    public long id() {
        StreamAdmission.Admitted held = admitted;
        return held == null ? 0 : held.id();
    }

    /** The stream as the admin API shows it, taken on its event loop. */
    @Override
    public CompletableFuture<StreamStatus> status() {
        return CompletableFuture.supplyAsync(() -> stats.status(admitted.id(), admitted.lease().object(), client(),
            webSocket() ? "websocket" : "tcp",
            finished ? "ended" : paused ? "paused" : stats.sending() ? "playing" : "starting", profile,
            admitted.buffering().mode()),
            ctx.executor());
    }

    private boolean webSocket() {
        return ctx.pipeline().get(WebSocketFrames.class) != null;
    }

    private String name() {
        return admitted.lease().object().name();
    }

    private String client() {
        return ClientAddress.of(ctx.channel().remoteAddress());
    }
}
