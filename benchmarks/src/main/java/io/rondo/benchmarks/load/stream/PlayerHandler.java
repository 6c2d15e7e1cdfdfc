package io.rondo.benchmarks.load.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.rondo.benchmarks.load.stream.LoadResults.Outcome;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.Live;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Redirect;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.client.protocol.Report;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One player of a load run, on one connection of the stream protocol's TCP binding
 * (docs/stream-protocol.md): OPEN with the run's client profile; ACCEPT, or REJECT (retried after
 * its retry-after only with --retry, and only for a resource that was short); then DATA until END,
 * ERROR, or the run's --duration, when it sends CLOSE. While streaming it sends REPORT every
 * second, as {@code StreamClient} does, with what its {@link PlayerBuffer} holds and the bytes
 * received, and it plays its buffer at the media's rate, reading nothing while the buffer is full.
 *
 * <p>In a cluster it follows REDIRECT to the node named, and, with reconnection on, a connection
 * lost mid-stream (closed, reset, or ERROR SHUTTING_DOWN) is made again to the run's address after a
 * backoff and the stream OPENed at the fragment after the last received ({@link Reconnection}). Each
 * connection is a new channel on the same event loop with this same handler, hence sharable.
 *
 * <p>Non-blocking, so a few hundred players share an event loop or two: the bytes of a read are
 * fed to the protocol's own {@link FrameDecoder}, and the clock is read once per read, so every
 * frame a read completes arrived at that moment. Owned by the channel's event loop, apart from
 * {@link #stop()}.
 */
@ChannelHandler.Sharable
final class PlayerHandler extends ChannelInboundHandlerAdapter {



    /** How often REPORT goes while a stream is open, as {@code StreamClient.DEFAULT_REPORT_INTERVAL}. */
    static final long REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    /** How long after CLOSE the player waits for the server to end the stream before it closes itself. */
    static final long CLOSE_GRACE_NS = TimeUnit.SECONDS.toNanos(5);

    private enum State { CONNECTING, OPENING, WAITING_TO_RETRY, STREAMING, CLOSING, RECONNECTING, DONE }

    private final int index;
    private final LoadSettings settings;
    private final LoadResults results;
    private final LongSupplier nanoClock;
    private final FrameDecoder decoder = new FrameDecoder();
    private final PlayerBuffer buffer;
    private final FragmentListener listener;
    private final Reconnection reconnection;

    private ChannelHandlerContext ctx;
    private volatile boolean stopRequested;
    private State state = State.CONNECTING;
    private ScheduledFuture<?> durationTimer;
    private ScheduledFuture<?> stepTimer;
    private ScheduledFuture<?> reportTimer;
    private ScheduledFuture<?> refillTimer;
    private long firstOpenNs;
    private long openNs;
    private long acceptNs;
    private boolean admitted;
    private long fragmentDurationNs;
    private long bitsPerSecond;
    private int rejects;
    private String rejectDetail;
    private long fragments;
    private long bytes;
    private long lateFragments;
    private long missingFragments;
    private long sequenceFaults;
    private long nextFragmentIndex;
    private long nextSequence;
    private long openToAcceptNs = -1;
    private long openToFirstDataNs = -1;
    private long secondPresentationNs;
    private long secondArrivalNs;
    private long lastPresentationNs;
    private long lastArrivalNs;
    /** Where the next OPEN starts after a loss: the fragment after the last received; -1 for the run's start. */
    private long resumeAtNs = -1;
    private String lostDetail;

    /** A player told of nothing, which follows no REDIRECT and never reconnects; see the full constructor. */
    PlayerHandler(int index, LoadSettings settings, LoadResults results, LongSupplier nanoClock) {
        this(index, settings, results, nanoClock, FragmentListener.NONE, null, 0);
    }

    /**
     * @param index the stream's number in the run, from 0
     * @param settings what to open, with what profile, for how long
     * @param results where the player reports what it sees
     * @param nanoClock the monotonic clock arrivals are measured on
     * @param listener told of every DATA and of the stream's end
     * @param connector makes the connections after the first; null: no REDIRECT is followed, no loss reconnected
     * @param reconnects how many connections to try after each loss; 0 never reconnects
     */
    PlayerHandler(int index, LoadSettings settings, LoadResults results, LongSupplier nanoClock,
                  FragmentListener listener, Reconnection.Connector connector, int reconnects) {
        this.reconnection = new Reconnection(settings.host(), settings.port(), connector, reconnects);
        this.listener = listener;
        this.index = index;
        this.settings = settings;
        this.results = results;
        this.nanoClock = nanoClock;
        this.buffer = new PlayerBuffer(settings.profile().bufferBytes());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        if (stopRequested) {
            finish(Outcome.STOPPED, null);
            return;
        }
        long nowNs = nanoClock.getAsLong();
        if (state == State.RECONNECTING) {
            open(nowNs);
            return;
        }
        firstOpenNs = nowNs;
        results.streamOpened();
        durationTimer = context.executor().schedule(this::durationOver, settings.durationNs(), TimeUnit.NANOSECONDS);
        open(nowNs);
    }

    /** The connection could not be made; called on the channel's event loop. */
    void connectFailed(Throwable cause) {
        if (state == State.CONNECTING) {
            finish(stopRequested ? Outcome.STOPPED : Outcome.CONNECT_FAILED, describe(cause));
        } else if (state == State.RECONNECTING) {
            lost(describe(cause));
        }
    }

    /** Ends the stream now, from any thread: the run is being stopped. */
    void stop() {
        stopRequested = true;
        ChannelHandlerContext context = ctx;
        if (context != null) {
            context.executor().execute(() -> {
                if (state != State.DONE) {
                    finish(Outcome.STOPPED, null);
                }
            });
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        ByteBuf received = (ByteBuf) msg;
        try {
            if (state == State.DONE || context != ctx) {
                return;
            }
            long nowNs = nanoClock.getAsLong();
            for (ByteBuffer chunk : received.nioBuffers()) {
                for (Frame frame = decoder.next(chunk); frame != null && state != State.DONE;
                     frame = decoder.next(chunk)) {
                    frame(frame, nowNs);
                }
            }
        } catch (ProtocolException e) {
            finish(Outcome.PROTOCOL_FAULT, e.code().name() + ": " + e.getMessage());
        } finally {
            received.release();
        }
    }

    private void frame(Frame frame, long nowNs) {
        if (frame instanceof Data data && (state == State.STREAMING || state == State.CLOSING)) {
            data(data, nowNs);
        } else if (frame instanceof Accept accept && state == State.OPENING) {
            accept(accept, nowNs);
        } else if (frame instanceof Reject reject && state == State.OPENING) {
            reject(reject, nowNs);
        } else if (frame instanceof Redirect redirect && state == State.OPENING) {
            // Another node holds the object, or has room for it: the same OPEN goes there.
            state = State.RECONNECTING;
            String refused = reconnection.follow(redirect, ctx.channel(), this);
            if (refused != null) {
                finish(Outcome.REJECTED, refused);
            }
        } else if (frame instanceof Live && (state == State.STREAMING || state == State.CLOSING)) {
            // How far the recording of a live object has got: the player plays what DATA brings.
        } else if (frame instanceof End && (state == State.STREAMING || state == State.CLOSING)) {
            finish(state == State.CLOSING ? Outcome.CLOSED : Outcome.ENDED, null);
        } else if (frame instanceof ErrorFrame error && error.errorCode() == ErrorCode.SHUTTING_DOWN
            && state == State.STREAMING && reconnection.enabled()) {
            lost(LoadResults.errorName(error.code()) + ": " + error.message());
        } else if (frame instanceof ErrorFrame error) {
            results.error(error.code(), error.message());
            finish(Outcome.ERROR, LoadResults.errorName(error.code()) + ": " + error.message());
        } else {
            finish(Outcome.PROTOCOL_FAULT, ErrorCode.UNEXPECTED_FRAME + ": the server sent " + frame.type()
                + " to a client that is " + state);
        }
    }

    private void open(long nowNs) {
        openNs = nowNs;
        state = State.OPENING;
        LoadSettings.Target target = settings.target(index);
        write(resumeAtNs >= 0 ? new Open(target.objectName(), resumeAtNs, settings.profile(), false, true)
            : new Open(target.objectName(), target.startNs(), settings.profile(), target.fromLive(), true));
    }

    /**
     * The connection is gone mid-stream ({@code detail}): it is made again to the run's address
     * after a backoff, if the player reconnects and has attempts left; else the stream is lost.
     */
    private void lost(String detail) {
        long waitNs = admitted ? reconnection.lost(nanoClock.getAsLong()) : -1;
        lostDetail = lostDetail == null ? detail : lostDetail;
        if (waitNs < 0) {
            finish(Outcome.LOST, lostDetail);
            return;
        }
        state = State.RECONNECTING;
        cancel(reportTimer);
        cancel(refillTimer);
        resumeAtNs = fragments == 0 ? -1 : lastPresentationNs + fragmentDurationNs;
        stepTimer = reconnection.again(ctx.channel(), this, waitNs);
    }

    private void accept(Accept accept, long nowNs) {
        acceptNs = nowNs;
        reconnection.answered();
        fragmentDurationNs = accept.fragmentDurationNs();
        bitsPerSecond = accept.bitsPerSecond();
        if (admitted) {
            reconnection.reopened();
        } else {
            admitted = true;
            openToAcceptNs = nowNs - openNs;
            results.accepted(openToAcceptNs);
        }
        state = State.STREAMING;
        reportTimer = ctx.executor().scheduleAtFixedRate(this::report, REPORT_INTERVAL_NS, REPORT_INTERVAL_NS,
            TimeUnit.NANOSECONDS);
    }

    private void reject(Reject reject, long nowNs) {
        reconnection.answered();
        if (admitted) {
            // Opening a lost stream again: past its end it is over; a short resource is one more attempt.
            String why = reject.reason() + ": " + reject.message();
            if (reject.reason().transientShortage()) {
                lost(why);
            } else {
                finish(reject.reason() == RejectReason.START_OUT_OF_RANGE ? Outcome.ENDED : Outcome.REJECTED, why);
            }
            return;
        }
        rejects++;
        rejectDetail = reject.reason() + (reject.message().isEmpty() ? "" : ": " + reject.message());
        results.rejected(reject.reason(), reject.message());
        long retryInNs = TimeUnit.SECONDS.toNanos(Math.max(1, reject.retryAfterSeconds()));
        boolean retryFits = firstOpenNs + settings.durationNs() - (nowNs + retryInNs) > 0;
        if (settings.retry() && reject.reason().transientShortage() && retryFits) {
            state = State.WAITING_TO_RETRY;
            stepTimer = ctx.executor().schedule(() -> open(nanoClock.getAsLong()), retryInNs, TimeUnit.NANOSECONDS);
        } else {
            finish(Outcome.REJECTED, rejectDetail);
        }
    }

    private void data(Data data, long nowNs) {
        boolean resumed = reconnection.resuming();
        if (resumed && data.fragmentIndex() < nextFragmentIndex) {
            return;
        }
        reconnection.data(nowNs);
        lostDetail = null;
        long latenessNs = Lateness.of(nowNs, acceptNs, data.deadlineNs());
        int size = data.payload().remaining();
        fragments++;
        bytes += size;
        if (Lateness.isLate(latenessNs)) {
            lateFragments++;
        }
        if (fragments == 1) {
            openToFirstDataNs = nowNs - openNs;
            results.firstData(openToFirstDataNs);
        } else {
            missingFragments += Math.max(0, data.fragmentIndex() - nextFragmentIndex);
            if (!resumed && data.sequence() != nextSequence) {
                sequenceFaults++;
            }
        }
        if (fragments == 2) {
            secondPresentationNs = data.presentationNs();
            secondArrivalNs = nowNs;
        }
        nextFragmentIndex = data.fragmentIndex() + 1;
        nextSequence = data.sequence() + 1;
        lastPresentationNs = data.presentationNs();
        lastArrivalNs = nowNs;
        results.fragment(latenessNs, size, nowNs);
        listener.fragment(index, data.fragmentIndex(), nowNs, acceptNs + data.deadlineNs(), fragmentDurationNs, size);
        buffer.received(data.presentationNs(), fragmentDurationNs, size, acceptNs + data.deadlineNs());
        if (buffer.full(nowNs) && ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
            scheduleRefill(nowNs);
        }
    }

    /** Reads again once playback has made room in the buffer. */
    private void scheduleRefill(long nowNs) {
        refillTimer = ctx.executor().schedule(() -> {
            long thenNs = nanoClock.getAsLong();
            if (state == State.DONE) {
                return;
            }
            if (buffer.full(thenNs)) {
                scheduleRefill(thenNs);
            } else {
                ctx.channel().config().setAutoRead(true);
            }
        }, Math.max(TimeUnit.MILLISECONDS.toNanos(1), buffer.nextRoomInNs(nowNs)), TimeUnit.NANOSECONDS);
    }

    private void report() {
        if (state != State.STREAMING) {
            return;
        }
        long nowNs = nanoClock.getAsLong();
        write(new Report(buffer.bufferedNs(nowNs), buffer.bufferedBytes(nowNs), bytes));
    }

    /** The stream has played its --duration: CLOSE it, or give up on an OPEN that had no answer. */
    private void durationOver() {
        switch (state) {
            case STREAMING -> {
                state = State.CLOSING;
                cancel(reportTimer);
                write(new Close());
                stepTimer = ctx.executor().schedule(() -> finish(Outcome.CLOSED, null), CLOSE_GRACE_NS,
                    TimeUnit.NANOSECONDS);
            }
            case OPENING -> finish(Outcome.NO_ANSWER, "no ACCEPT or REJECT within --duration");
            case WAITING_TO_RETRY -> finish(Outcome.REJECTED, rejectDetail);
            case RECONNECTING -> finish(Outcome.LOST, lostDetail == null ? "no node answered within --duration"
                : lostDetail);
            default -> {
                // Connecting streams have no timer yet; closing and ended ones need nothing more.
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        if (state == State.DONE || state == State.RECONNECTING || context != ctx) {
            return;
        }
        if (state == State.CLOSING) {
            // The server ends a CLOSEd stream by closing the connection; DATA cut short by it is no fault.
            finish(Outcome.CLOSED, null);
            return;
        }
        String detail = "the server closed the connection while the client was " + state;
        try {
            decoder.finish();
        } catch (ProtocolException e) {
            detail = detail + " (" + e.getMessage() + ")";
        }
        if (state == State.STREAMING || reconnection.resuming()) {
            lost(detail);
        } else {
            finish(Outcome.LOST, detail);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (state == State.DONE || state == State.RECONNECTING || context != ctx) {
            return;
        }
        if (state == State.CLOSING && cause instanceof IOException) {
            finish(Outcome.CLOSED, null);
        } else if ((state == State.STREAMING || reconnection.resuming()) && cause instanceof IOException) {
            lost(describe(cause));
        } else {
            finish(cause instanceof IOException ? Outcome.LOST : Outcome.PROTOCOL_FAULT, describe(cause));
        }
    }

    private void write(Frame frame) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(FrameCodec.encode(frame)))
            .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    private void finish(Outcome outcome, String detail) {
        if (state == State.DONE) {
            return;
        }
        state = State.DONE;
        cancel(durationTimer);
        cancel(stepTimer);
        cancel(reportTimer);
        cancel(refillTimer);
        listener.ended(index);
        results.streamEnded(new LoadResults.StreamRecord(index, outcome, detail, admitted, rejects, bitsPerSecond,
            fragments, bytes, lateFragments, missingFragments, sequenceFaults, openToAcceptNs, openToFirstDataNs,
            fragments >= 3 ? lastPresentationNs - secondPresentationNs : 0,
            fragments >= 3 ? lastArrivalNs - secondArrivalNs : 0, reconnection.reconnects(), reconnection.gaps(),
            reconnection.longestGapNs()));
        if (ctx != null) {
            ctx.close();
        }
    }

    private static void cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
