package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.rondo.server.runtime.Completions;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Pause;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.client.protocol.Report;
import io.rondo.client.protocol.Resume;
import io.rondo.client.protocol.Seek;
import io.rondo.content.ingest.Directory;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.admission.AdmissionDecision;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.exec.IoTask;
import io.rondo.scheduler.exec.MissedRoundException;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.runtime.Chunk;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.runtime.QueueFullException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One client's stream (papers/001 Section 6, papers/004 Section 3): the stream protocol's state
 * machine. OPEN, admission, ACCEPT with the init segment; the fragments from the keyframe at or
 * before the start read at once, then one C-request per round for the fragment due next
 * ({@link RoundPlan}); the fragments put back in order ({@link Outbox}) and handed one at a time to
 * the sender, which writes each as DATA no faster than the client's rate, before its deadline
 * ({@link StreamSender}); a client that falls behind slowed, then ended ({@link ClientLag}). A
 * fragment not on the wire by its deadline is a glitch.
 *
 * <p>A client is held to the deadlines of {@link ClientDeadline}: a whole OPEN soon after it
 * connects, then a frame at least every client timeout, else ERROR CLIENT_TIMEOUT. Every SEEK is
 * answered, in order, by the first fragment of its own position (a DATA with DISCONTINUITY) or,
 * past the end, by END: one arriving while an earlier one waits for its answer waits behind it.
 *
 * <p>Owned by the channel's event loop; the round clock reaches the stream only through
 * {@link #plan}, which asks the {@link RoundPlan} (thread-safe) and builds the C-request.
 */
final class StreamSession extends SimpleChannelInboundHandler<Frame> {

    private static final Logger LOG = LoggerFactory.getLogger(StreamSession.class);

    /** The deadline of the fragments a stream starts with: one round after ACCEPT, known once ACCEPT is sent. */
    private static final long FIRST_DEADLINE = Long.MIN_VALUE;

    private final Directory directory;
    private final DiskRuntime disks;
    private final AdmissionController admission;
    private final StreamRegistry registry;
    private final StreamSender sender;
    private final StreamSettings settings;
    private final Outbox outbox = new Outbox();
    /** The positions of SEEKs that wait for an earlier SEEK's answer, oldest first. */
    private final ArrayDeque<Long> seeksWaiting = new ArrayDeque<>();

    private ChannelHandlerContext ctx;
    private long id;
    private volatile Directory.Lease lease;
    private volatile DiskRuntime.Prepared prepared;
    private volatile RoundPlan roundPlan;
    private ClientProfile profile;
    private ClientLag lag;
    private ClientDeadline deadline;
    private long openNs;
    private long acceptNs;
    private long firstDataNs;
    private boolean admitted;
    private boolean finished;
    private boolean paused;
    private boolean inSender;
    /** A SEEK was applied and its answer, the next DATA, carries DISCONTINUITY. */
    private boolean discontinuity;
    private long sequence;
    private long glitches;
    private long bytesSent;
    private long fragmentsSent;
    private long positionNs;
    private long maxLatenessNs = Long.MIN_VALUE;
    private java.time.Instant openedAt;

    StreamSession(Directory directory, DiskRuntime disks, AdmissionController admission, StreamRegistry registry,
                  StreamSender sender, StreamSettings settings) {
        this.directory = directory;
        this.disks = disks;
        this.admission = admission;
        this.registry = registry;
        this.sender = sender;
        this.settings = settings;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
        long nowNs = disks.clock().nanoTime();
        deadline = new ClientDeadline(TimeUnit.MILLISECONDS.toNanos(settings.clientTimeoutMs()),
            TimeUnit.MILLISECONDS.toNanos(settings.openTimeoutMs()), nowNs);
        watchDeadline(deadline.remainingNs(nowNs));
    }

    private void watchDeadline(long delayNs) {
        ctx.executor().schedule(this::checkDeadline, Math.max(1, delayNs), TimeUnit.NANOSECONDS);
    }

    /** Ends a connection whose client owes a frame past its deadline; else looks again when the deadline comes. */
    private void checkDeadline() {
        if (finished) {
            return;
        }
        long nowNs = disks.clock().nanoTime();
        ClientDeadline.Missed missed = deadline.missed(nowNs);
        if (missed == ClientDeadline.Missed.OPEN) {
            error(ErrorCode.CLIENT_TIMEOUT, "no OPEN came within " + settings.openTimeoutMs()
                + " ms (streams.openTimeout); the connection is closed");
        } else if (missed == ClientDeadline.Missed.FRAME) {
            error(ErrorCode.CLIENT_TIMEOUT, "the client sent no frame for " + settings.clientTimeoutMs()
                + " ms (streams.clientTimeout); the stream is ended");
        } else {
            watchDeadline(deadline.remainingNs(nowNs));
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, Frame frame) {
        if (finished) {
            return;
        }
        deadline.heard(disks.clock().nanoTime());
        if (frame instanceof Open open) {
            open(open);
        } else if (!admitted) {
            error(ErrorCode.UNEXPECTED_FRAME, "OPEN a stream first");
        } else if (frame instanceof Pause) {
            paused = true;
            if (roundPlan != null) {
                roundPlan.pause(true);
            }
        } else if (frame instanceof Resume) {
            paused = false;
            if (roundPlan != null) {
                roundPlan.pause(false);
            }
            pump();
        } else if (frame instanceof Seek seek && roundPlan != null) {
            seekInTurn(seek.positionNs());
        } else if (frame instanceof Close) {
            end();
        } else if (frame instanceof Report report) {
            report(report);
        } else {
            error(ErrorCode.UNEXPECTED_FRAME, "a client does not send " + frame.getClass().getSimpleName());
        }
    }

    private void open(Open open) {
        if (admitted || lease != null) {
            error(ErrorCode.UNEXPECTED_FRAME, "this connection has a stream already");
            return;
        }
        deadline.opening();
        openNs = disks.clock().nanoTime();
        openedAt = java.time.Instant.now();
        Optional<Directory.Lease> found;
        try {
            found = directory.open(open.objectName());
        } catch (IllegalArgumentException e) {
            found = Optional.empty();
        }
        if (found.isEmpty()) {
            reject(RejectReason.NOT_FOUND, 0, "no object is named " + open.objectName());
            return;
        }
        MediaObject object = found.get().object();
        MediaIndex media = object.media();
        if (media == null) {
            found.get().close();
            reject(RejectReason.NOT_CONTINUOUS, 0, object.name() + " is discrete data: fetch it over HTTP");
            return;
        }
        if (open.startNs() < 0 || open.startNs() >= media.durationNs() && media.durationNs() > 0) {
            found.get().close();
            reject(RejectReason.START_OUT_OF_RANGE, 0, "start " + open.startNs() + " ns is outside the media ("
                + media.durationNs() + " ns)");
            return;
        }
        long peak = media.peakFragmentBytes();
        String unfit = StreamAdmission.unfit(open.profile(), media, disks.roundNs());
        if (unfit != null) {
            found.get().close();
            registry.log().refused(object.name(), client(), "client-profile", 0, unfit);
            reject(RejectReason.CLIENT_PROFILE, 0, unfit);
            return;
        }
        id = registry.nextId();
        AdmissionDecision decision = admission.admit(StreamAdmission.demand(object, id));
        if (decision instanceof AdmissionDecision.Reject no) {
            found.get().close();
            registry.log().refused(object.name(), client(), no.resource().label(), no.retryAfterSeconds(),
                no.reason());
            reject(switch (no.resource()) {
                case DISK_TIME, MEASURING -> RejectReason.DISK_TIME;
                case BUFFER_MEMORY -> RejectReason.BUFFER_MEMORY;
                case NETWORK, DELIVERY -> RejectReason.NETWORK;
            }, (int) Math.min(Integer.MAX_VALUE, no.retryAfterSeconds()), no.reason());
            return;
        }
        if (!disks.buffers().reserveStream(id, (int) Math.max(1, peak) + 2 * DiskIo.ALIGNMENT)) {
            admission.release(id);
            found.get().close();
            registry.log().refused(object.name(), client(), "buffer-memory", 5, "no buffer memory left for the "
                + "stream's two fragment buffers");
            reject(RejectReason.BUFFER_MEMORY, 5, "no buffer memory left for the stream's two fragment buffers: "
                + "raise buffers.ceiling in rondo.yaml, or, where it is auto (half the JVM's direct memory), "
                + "RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize=SIZE");
            return;
        }
        admitted = true;
        registry.log().admitted(id, object.name(), client());
        lag = new ClientLag(peak);
        lease = found.get();
        profile = open.profile();
        long startNs = open.startNs();
        disks.prepare(object).whenCompleteAsync((ready, failure) -> prepared(ready, failure, startNs),
            ctx.executor());
    }

    /**
     * The object is ready: the reads from the keyframe at or before the start go to the disk at
     * once, beside the init segment's (unless an earlier stream of the same object left it in
     * memory), so a new stream waits for about one IO and its own reads, whatever else is streaming.
     */
    private void prepared(DiskRuntime.Prepared ready, Throwable failure, long startNs) {
        if (finished) {
            return;
        }
        if (failure != null) {
            if (busy(failure)) {
                return;
            }
            error(ErrorCode.READ_FAILED, "cannot open " + lease.object().name() + ": " + failure.getMessage());
            return;
        }
        MediaIndex media = ready.object().media();
        int first = media.keyframeFragmentAt(startNs);
        prepared = ready;
        roundPlan = new RoundPlan(ready.diskIndexes());
        outbox.moveTo(first);
        issueNow(roundPlan.start(first, media.fragmentAt(startNs), 0), FIRST_DEADLINE);
        MediaObject object = ready.object();
        long initLength = media.init().length();
        byte[] cached = registry.initSegment(object);
        if (initLength == 0 || cached != null) {
            accept(ready, cached == null ? new byte[0] : cached);
            return;
        }
        disks.read(object, 0, (int) Math.min(initLength, disks.maxReadBytes()))
            .whenCompleteAsync((chunk, error) -> initRead(ready, chunk, error), ctx.executor());
    }

    private void initRead(DiskRuntime.Prepared ready, Chunk init, Throwable error) {
        if (init != null && (finished || error != null
            || init.data().remaining() < ready.object().media().init().length())) {
            init.release();
            init = null;
        }
        if (finished || error != null && busy(error)) {
            return;
        }
        if (init == null) {
            error(ErrorCode.READ_FAILED, "cannot read the init segment of " + ready.object().name());
            return;
        }
        byte[] bytes = new byte[init.data().remaining()];
        init.data().duplicate().get(bytes);
        init.release();
        registry.rememberInitSegment(ready.object(), bytes);
        accept(ready, bytes);
    }

    private void accept(DiskRuntime.Prepared ready, byte[] init) {
        MediaIndex media = ready.object().media();
        acceptNs = disks.clock().nanoTime();
        deadline.accepted(acceptNs);
        write(new Accept(id, disks.roundNs(), media.averageBitRate(), media.codecs(), ByteBuffer.wrap(init)));
        registry.add(this);
        pump();
    }

    /**
     * Whether a stream not yet accepted could not start because the server's queues were full: if
     * so it is refused, as admission refuses, with a retry-after, and everything it held is freed.
     */
    private boolean busy(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (!(cause instanceof QueueFullException)) {
            return false;
        }
        String object = lease.object().name();
        registry.log().refused(object, client(), "busy", 1, cause.getMessage());
        int retryAfterSeconds = 1;
        reject(RejectReason.DISK_TIME, retryAfterSeconds, "the server could not start the stream of " + object
            + " now: " + cause.getMessage());
        finish("refused: " + cause.getMessage());
        ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
        return true;
    }

    /** Reads {@code reads} at once, ahead of the rounds, each due at {@code deadlineNs}. */
    private void issueNow(RoundPlan.Read[] reads, long deadlineNs) {
        for (RoundPlan.Read read : reads) {
            disks.readFragmentNow(prepared, read.fragment(), id).whenCompleteAsync((chunk, error) ->
                arrived(read, chunk, error, deadlineNs), ctx.executor());
        }
    }

    /** The round clock asks: this stream's C-request on {@code disk} this round, or null. */
    ContinuousRequest plan(int disk, long round, long startNs) {
        RoundPlan reads = roundPlan;
        DiskRuntime.Prepared ready = prepared;
        if (reads == null || ready == null) {
            return null;
        }
        RoundPlan.Read read = reads.planRound(disk, round);
        if (read == null) {
            return null;
        }
        if (read == RoundPlan.Read.LAGGING) {
            ctx.executor().execute(() -> error(ErrorCode.CLIENT_TIMEOUT,
                "the client has not taken its data for " + RoundPlan.LAG_ROUNDS + " rounds; the stream is ended"));
            return null;
        }
        Fragment stored = ready.object().media().fragments().get(read.fragment());
        ContinuousRequest request = new ContinuousRequest(registry.nextRequestId(), id,
            ready.positions()[read.fragment()], stored.length());
        CompletableFuture<Chunk> result = new CompletableFuture<>();
        request.attach(new IoTask(ready.files().get(stored.file()), stored.fileOffset(), (int) stored.length(), id,
            Completions.of(result)));
        long deadlineNs = startNs + 2 * disks.roundNs();
        result.whenCompleteAsync((chunk, failure) -> arrived(read, chunk, failure, deadlineNs), ctx.executor());
        return request;
    }

    /**
     * A fragment's read completed. A read the disk dropped unread at its round's end is read again
     * at once, ahead of the sweep: double buffering leaves it a round before its deadline, and the
     * disk never refuses a stream's read. A read that failed on the disk ends the stream with
     * READ_FAILED, since its object cannot be played.
     */
    private void arrived(RoundPlan.Read read, Chunk chunk, Throwable failure, long deadlineNs) {
        if (finished || !roundPlan.current(read.generation())) {
            if (chunk != null) {
                chunk.release();
            }
            if (!finished) {
                released(deadlineNs);
            }
            return;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (cause instanceof MissedRoundException) {
            issueNow(new RoundPlan.Read[] {read}, deadlineNs);
            return;
        }
        if (cause != null) {
            error(ErrorCode.READ_FAILED, "cannot read fragment " + read.fragment() + " of " + lease.object().name()
                + ": " + cause.getMessage());
            return;
        } else {
            outbox.add(new Outbox.Ready(read.fragment(), chunk, deadlineNs));
        }
        pump();
    }

    /** A fragment's buffer came free; while the stream catches up to its start, the next is read at once. */
    private void released(long deadlineNs) {
        RoundPlan.Read next = roundPlan.released();
        if (next != null) {
            issueNow(new RoundPlan.Read[] {next}, deadlineNs);
        }
    }

    /**
     * Hands the next fragment, in order, to the sender, which picks the moment (earliest deadline
     * first among the clients that may take data now); one fragment of a stream is in its hands at
     * a time.
     */
    private void pump() {
        if (acceptNs == 0 || finished || paused || inSender) {
            return;
        }
        int total = prepared.object().media().fragments().size();
        if (outbox.nextToSend() >= total) {
            end();
            return;
        }
        Outbox.Ready queued = outbox.takeNext();
        if (queued == null) {
            return;
        }
        Outbox.Ready next = queued.deadlineNs() == FIRST_DEADLINE
            ? new Outbox.Ready(queued.fragment(), queued.chunk(), acceptNs + disks.roundNs()) : queued;
        inSender = true;
        int generationNow = roundPlan.generation();
        sender.offer(new StreamSender.Packet(this, ctx.channel(), next.deadlineNs(),
            next.chunk().data().remaining() + FrameCodec.DATA_PREFIX_LENGTH,
            Math.max(1, (long) (profile.maxReceiveBytesPerSecond() * lag.rateShare())),
            heldByClient -> ctx.executor().execute(() -> transmit(next, generationNow, heldByClient))));
    }

    /**
     * The sender's turn for this stream came: write the fragment, then hand over the next. Unless
     * the fragment waited for its own client, how long before its deadline it goes is what the
     * server's load left it, and admission hears it ({@link AdmissionController#delivered}).
     */
    private void transmit(Outbox.Ready next, int generationThen, boolean heldByClient) {
        inSender = false;
        if (!heldByClient && !finished) {
            long nowNs = disks.clock().nanoTime();
            admission.delivered(next.deadlineNs() - nowNs, nowNs);
        }
        if (finished || !roundPlan.current(generationThen)) {
            next.chunk().release();
            if (!finished) {
                released(next.deadlineNs());
                pump();
            }
            return;
        }
        send(next, disks.clock().nanoTime());
        outbox.sent();
        if (!discontinuity && !seeksWaiting.isEmpty()) {
            seek(seeksWaiting.poll());
        }
        pump();
    }

    private void send(Outbox.Ready next, long nowNs) {
        Fragment fragment = prepared.object().media().fragments().get(next.fragment());
        int bytes = next.chunk().data().remaining();
        Data data = new Data(sequence++, next.fragment(), fragment.startNs(), next.deadlineNs() - acceptNs,
            discontinuity, next.chunk().data());
        discontinuity = false;
        ByteBuffer prefix = ByteBuffer.allocate(FrameCodec.DATA_PREFIX_LENGTH);
        FrameCodec.encodeDataPrefix(data, prefix);
        prefix.flip();
        ByteBuf frame = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(prefix),
            Unpooled.wrappedBuffer(next.chunk().data()));
        if (firstDataNs == 0) {
            firstDataNs = nowNs;
        }
        bytesSent += bytes;
        registry.sent(bytes);
        fragmentsSent++;
        positionNs = fragment.startNs();
        maxLatenessNs = Math.max(maxLatenessNs, nowNs - next.deadlineNs());
        long deadlineNs = next.deadlineNs();
        ctx.writeAndFlush(frame).addListener(future -> {
            next.chunk().release();
            if (!finished) {
                released(deadlineNs);
            }
            if (future.isSuccess() && disks.clock().nanoTime() - deadlineNs > 0) {
                glitch();
            }
        });
    }

    /**
     * A SEEK from the client: applied now, unless an earlier SEEK still waits for its answer; then
     * it waits behind it, so each is answered by its own position's first fragment, in order.
     */
    private void seekInTurn(long positionNs) {
        if (!discontinuity && seeksWaiting.isEmpty()) {
            seek(positionNs);
        } else if (seeksWaiting.size() + 2 > settings.maxUnansweredSeeks()) {
            error(ErrorCode.UNEXPECTED_FRAME, "more than " + settings.maxUnansweredSeeks() + " SEEKs wait for their "
                + "answer (streams.maxUnansweredSeeks)");
        } else {
            seeksWaiting.add(positionNs);
        }
    }

    /**
     * Moves the stream: what was queued is dropped, and the fragments from the keyframe at or
     * before the new position up to the position's own are read at once, as a new stream's first
     * are, due one round from now; a player so resumes after a seek in about one IO rather than up
     * to a round later, and its decoder starts at a keyframe. A position past the end is answered
     * with END alone.
     */
    private void seek(long positionNs) {
        MediaIndex media = prepared.object().media();
        if (media.durationNs() > 0 && positionNs >= media.durationNs()) {
            end();
            return;
        }
        int first = media.keyframeFragmentAt(positionNs);
        int dropped = outbox.moveTo(first);
        discontinuity = true;
        RoundPlan.Read[] reads = roundPlan.start(first, media.fragmentAt(positionNs), dropped);
        issueNow(reads, disks.clock().nanoTime() + disks.roundNs());
    }

    private void glitch() {
        glitches++;
        registry.glitch();
    }

    private void reject(RejectReason reason, int retryAfterSeconds, String message) {
        deadline.rejected(disks.clock().nanoTime(), TimeUnit.SECONDS.toNanos(retryAfterSeconds));
        write(new Reject(reason, retryAfterSeconds, message));
    }

    /** The stream is over (its last fragment, a CLOSE, a SEEK past the end): END, then the connection closes. */
    private void end() {
        write(new End());
        finish(null);
        ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
    }

    private void error(ErrorCode code, String message) {
        if (finished) {
            return;
        }
        write(new ErrorFrame(code.code(), message));
        finish(message);
        ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
    }

    private void write(Frame frame) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(FrameCodec.encode(frame)))
            .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    /** Ends the stream: out of the round plan, admission released, buffers and lease returned. */
    private void finish(String why) {
        if (finished) {
            return;
        }
        finished = true;
        if (roundPlan != null) {
            roundPlan.close();
        }
        registry.remove(this);
        sender.forget(this);
        outbox.clear();
        if (admitted) {
            admission.release(id);
            disks.buffers().releaseStream(id);
            lease.close();
            registry.log().ended(id, lease.object().name(), client(), why);
            LOG.info("stream {} of {} ended{}: {} bytes, {} glitches, initial latency {} ms", id,
                lease.object().name(), why == null ? "" : " (" + why + ")", bytesSent, glitches,
                firstDataNs == 0 ? "-" : String.format("%.1f", (firstDataNs - openNs) / 1e6));
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext context) throws Exception {
        sender.wake();
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

    /** A client's REPORT: see {@link ClientLag}. */
    private void report(Report report) {
        if (!admitted || acceptNs == 0) {
            return;
        }
        switch (lag.report(bytesSent, report.bytesReceived())) {
            case HALVE_RATE -> LOG.warn("stream {}: the client is {} bytes behind what was sent; halving its rate",
                id, bytesSent - report.bytesReceived());
            case END -> error(ErrorCode.CLIENT_TIMEOUT, "the client fell " + (bytesSent - report.bytesReceived())
                + " bytes behind and did not catch up");
            default -> {
            }
        }
    }

    /** The server is stopping: tell the client with ERROR and end the stream. */
    void serverShuttingDown() {
        ctx.executor().execute(() -> {
            if (!finished) {
                error(ErrorCode.SHUTTING_DOWN, "the server is shutting down");
            }
        });
    }

    /** An operator ends the stream: the client gets ERROR ENDED_BY_OPERATOR. Any thread. */
    void endByOperator(String why) {
        ctx.executor().execute(() -> {
            if (!finished) {
                error(ErrorCode.ENDED_BY_OPERATOR, why);
            }
        });
    }

    /** The catalog id of the object this stream reads (a rename keeps it), or -1 before it is admitted. */
    long objectId() {
        Directory.Lease held = lease;
        return held == null ? -1 : held.object().id();
    }

    long id() {
        return id;
    }

    /** The stream as the admin API shows it, taken on its event loop. */
    CompletableFuture<StreamStatus> status() {
        CompletableFuture<StreamStatus> result = new CompletableFuture<>();
        ctx.executor().execute(() -> result.complete(statusNow()));
        return result;
    }

    private StreamStatus statusNow() {
        MediaObject object = lease.object();
        String state = finished ? "ended" : paused ? "paused" : firstDataNs == 0 ? "starting" : "playing";
        return new StreamStatus(id, object.name(), client(), transport(), state, openedAt.toString(),
            positionNs / 1e9, new StreamStatus.Profile(profile.maxReceiveBytesPerSecond(), profile.bufferBytes()),
            object.placement().files().stream().map(file -> file.disk()).distinct().sorted().toList(), bytesSent,
            fragmentsSent, glitches, maxLatenessNs == Long.MIN_VALUE ? null : maxLatenessNs / 1e6,
            firstDataNs == 0 ? null : (firstDataNs - openNs) / 1e6);
    }

    private String client() {
        java.net.SocketAddress remote = ctx.channel().remoteAddress();
        if (remote instanceof java.net.InetSocketAddress address) {
            String host = address.getAddress() == null ? address.getHostString()
                : address.getAddress().getHostAddress();
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
        }
        return String.valueOf(remote);
    }

    private String transport() {
        return ctx.pipeline().get(WebSocketFrames.class) != null ? "websocket" : "tcp";
    }

    /** How many glitches this stream had. */
    long glitches() {
        return glitches;
    }
}
