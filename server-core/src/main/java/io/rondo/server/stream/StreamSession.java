package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
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
import io.rondo.scheduler.admission.DiskDemand;
import io.rondo.scheduler.admission.StreamDemand;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.exec.IoTask;
import io.rondo.server.runtime.Chunk;
import io.rondo.server.runtime.DiskRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One client's stream (papers/001 Section 6, papers/004 Section 3): OPEN, admission, ACCEPT with
 * the init segment, the first fragment read at once, then one C-request per round for the fragment
 * due next, and the sender writing each fragment as DATA in order, no faster than the client's
 * maximum rate, before its deadline. A fragment not on the wire by its deadline is a glitch.
 *
 * <p>Netty state is confined to the channel's event loop; what the round clock reads
 * ({@link #plan}) is guarded by {@code planLock}. A stream holds at most two fragments at once
 * (double buffering): a round is skipped while both are still waiting to be sent, so a slow client
 * slows its own stream and never holds more server memory.
 */
final class StreamSession extends SimpleChannelInboundHandler<Frame> {

    private static final Logger LOG = LoggerFactory.getLogger(StreamSession.class);

    private final Directory directory;
    private final DiskRuntime disks;
    private final AdmissionController admission;
    private final StreamRegistry registry;
    private final StreamSender sender;

    private ChannelHandlerContext ctx;
    private int id;
    private Directory.Lease lease;
    private DiskRuntime.Prepared prepared;
    private ClientProfile profile;
    private long peakFragmentBytes;
    private long openNs;
    private long acceptNs;
    private long firstDataNs;
    private boolean admitted;
    private boolean finished;
    private boolean paused;
    private boolean inSender;
    private int reportsBehind;
    private double rateShare = 1;
    private boolean discontinuity;
    private int nextToSend;
    private long sequence;
    private long glitches;
    private long bytesSent;
    private final TreeMap<Integer, Ready> ready = new TreeMap<>();
    private final java.util.Set<Integer> lost = new java.util.HashSet<>();

    /** REPORTs in a row a client may be far behind (its rate halved) before its stream is ended. */
    static final int BEHIND_REPORTS = 3;

    /** Rounds in a row a stream may have both its fragments still unsent before it is ended. */
    static final int LAG_ROUNDS = 5;

    private final Object planLock = new Object();
    private int roundsBehind;
    private int nextToRead;
    private long lastPlannedRound = -1;
    private int held;
    private int generation;
    private boolean planPaused;
    private volatile boolean closed;

    private record Ready(int fragment, Chunk chunk, long deadlineNs) {
    }

    /** The deadline of a stream's first fragment: one round after ACCEPT, known only once ACCEPT is sent. */
    private static final long FIRST_DEADLINE = Long.MIN_VALUE;

    StreamSession(Directory directory, DiskRuntime disks, AdmissionController admission, StreamRegistry registry,
                  StreamSender sender) {
        this.directory = directory;
        this.disks = disks;
        this.admission = admission;
        this.registry = registry;
        this.sender = sender;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, Frame frame) {
        if (finished) {
            return;
        }
        if (frame instanceof Open open) {
            open(open);
        } else if (!admitted) {
            error(ErrorCode.UNEXPECTED_FRAME, "OPEN a stream first");
        } else if (frame instanceof Pause) {
            paused = true;
            synchronized (planLock) {
                planPaused = true;
            }
        } else if (frame instanceof Resume) {
            paused = false;
            synchronized (planLock) {
                planPaused = false;
            }
            pump();
        } else if (frame instanceof Seek seek && prepared != null) {
            seek(seek.positionNs());
        } else if (frame instanceof Close) {
            finish(null);
            context.close();
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
        openNs = disks.clock().nanoTime();
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
        int first = fragmentAt(media, open.startNs());
        if (open.startNs() < 0 || open.startNs() >= media.durationNs() && media.durationNs() > 0) {
            found.get().close();
            reject(RejectReason.START_OUT_OF_RANGE, 0, "start " + open.startNs() + " ns is outside the media ("
                + media.durationNs() + " ns)");
            return;
        }
        long peak = media.peakFragmentBytes();
        String unfit = unfit(open.profile(), peak);
        if (unfit != null) {
            found.get().close();
            reject(RejectReason.CLIENT_PROFILE, 0, unfit);
            return;
        }
        id = registry.nextId();
        AdmissionDecision decision = admission.admit(demand(object, Integer.toString(id)));
        if (decision instanceof AdmissionDecision.Reject no) {
            found.get().close();
            reject(no.resource() == AdmissionDecision.Resource.DISK_TIME ? RejectReason.DISK_TIME
                : RejectReason.BUFFER_MEMORY, (int) Math.min(Integer.MAX_VALUE, no.retryAfterSeconds()), no.reason());
            return;
        }
        if (!disks.buffers().reserveStream(id, (int) Math.max(1, peak) + 2 * DiskIo.ALIGNMENT)) {
            admission.release(Integer.toString(id));
            found.get().close();
            reject(RejectReason.BUFFER_MEMORY, 5, "no buffer memory left for the stream's two fragment buffers");
            return;
        }
        admitted = true;
        peakFragmentBytes = Math.max(1, peak);
        lease = found.get();
        profile = open.profile();
        nextToSend = first;
        disks.prepare(object).whenCompleteAsync((ready, failure) -> prepared(ready, failure, first), ctx.executor());
    }

    /**
     * Why a client's declared profile cannot take this object (papers/004 Section 2.3), or null if
     * it can: its buffer must hold two of the largest fragments (the one playing and the one
     * arriving), and its rate must carry the largest fragment within one round.
     */
    private String unfit(ClientProfile declared, long peak) {
        if (declared.bufferBytes() < 2 * peak) {
            return "the client's buffer of " + declared.bufferBytes() + " bytes cannot hold two of this object's "
                + "largest fragments (" + peak + " bytes each)";
        }
        double perRound = declared.maxReceiveBytesPerSecond() * (disks.roundNs() / 1e9);
        if (perRound < peak) {
            return "the client's rate of " + declared.maxReceiveBytesPerSecond() + " bytes/s cannot carry this "
                + "object's largest fragment (" + peak + " bytes) within one round";
        }
        return null;
    }

    /** A stream's demand per disk: the average and the largest fragment it reads there. */
    private StreamDemand demand(MediaObject object, String streamId) {
        Map<String, long[]> perDisk = new HashMap<>();
        for (Fragment fragment : object.media().fragments()) {
            long[] stats = perDisk.computeIfAbsent(object.placement().files().get(fragment.file()).disk(),
                disk -> new long[3]);
            stats[0] += fragment.length();
            stats[1]++;
            stats[2] = Math.max(stats[2], fragment.length());
        }
        Map<String, DiskDemand> disksDemand = new HashMap<>();
        perDisk.forEach((disk, stats) -> disksDemand.put(disk, new DiskDemand(Math.max(1, stats[0] / stats[1]),
            Math.max(1, stats[2]))));
        return new StreamDemand(streamId, disksDemand, Duration.ofNanos(object.media().durationNs()));
    }

    /**
     * The object is ready: the first fragment's read goes to the disk at once, beside the init
     * segment's (unless an earlier stream of the same object left it in memory), so a new stream
     * waits for about one IO and its own read, whatever else is streaming.
     */
    private void prepared(DiskRuntime.Prepared ready, Throwable failure, int first) {
        if (closed) {
            return;
        }
        if (failure != null) {
            error(ErrorCode.READ_FAILED, "cannot open " + lease.object().name() + ": " + failure.getMessage());
            return;
        }
        synchronized (planLock) {
            held = 1;
        }
        int generationNow = generation;
        disks.readFragmentNow(ready, first, id).whenCompleteAsync((chunk, error) ->
            arrived(first, generationNow, chunk, error, FIRST_DEADLINE), ctx.executor());
        MediaObject object = ready.object();
        long initLength = object.media().init().length();
        byte[] cached = registry.initSegment(object);
        if (initLength == 0 || cached != null) {
            accept(ready, first, cached == null ? new byte[0] : cached);
            return;
        }
        disks.read(object, 0, (int) Math.min(initLength, DiskRuntime.CHUNK_BYTES))
            .whenCompleteAsync((chunk, error) -> initRead(ready, chunk, error, first), ctx.executor());
    }

    private void initRead(DiskRuntime.Prepared ready, Chunk init, Throwable error, int first) {
        if (init != null && (closed || error != null
            || init.data().remaining() < ready.object().media().init().length())) {
            init.release();
            init = null;
        }
        if (closed) {
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
        accept(ready, first, bytes);
    }

    private void accept(DiskRuntime.Prepared ready, int first, byte[] init) {
        MediaIndex media = ready.object().media();
        acceptNs = disks.clock().nanoTime();
        write(new Accept(id, disks.roundNs(), media.averageBitRate(), media.codecs(), ByteBuffer.wrap(init)));
        synchronized (planLock) {
            prepared = ready;
            nextToRead = first + 1;
        }
        registry.add(this);
        pump();
    }

    /** The round clock asks: this stream's C-request on {@code disk} this round, or null. */
    ContinuousRequest plan(int disk, long round, long startNs) {
        int fragment;
        int generationNow;
        DiskRuntime.Prepared ready;
        synchronized (planLock) {
            ready = prepared;
            if (closed || planPaused || ready == null || lastPlannedRound == round
                || nextToRead >= ready.positions().length || ready.diskIndexes()[nextToRead] != disk) {
                return null;
            }
            if (held >= 2) {
                lastPlannedRound = round;
                if (++roundsBehind == LAG_ROUNDS) {
                    ctx.executor().execute(() -> error(ErrorCode.CLIENT_TIMEOUT,
                        "the client has not taken its data for " + LAG_ROUNDS + " rounds; the stream is ended"));
                }
                return null;
            }
            roundsBehind = 0;
            fragment = nextToRead++;
            lastPlannedRound = round;
            held++;
            generationNow = generation;
        }
        Fragment stored = ready.object().media().fragments().get(fragment);
        ContinuousRequest request = new ContinuousRequest(registry.nextRequestId(), id, ready.positions()[fragment],
            stored.length());
        CompletableFuture<Chunk> result = new CompletableFuture<>();
        request.attach(new IoTask(ready.files().get(stored.file()), stored.fileOffset(), (int) stored.length(), id,
            DiskRuntime.completion(result)));
        long deadlineNs = startNs + 2 * disks.roundNs();
        result.whenCompleteAsync((chunk, failure) -> arrived(fragment, generationNow, chunk, failure, deadlineNs),
            ctx.executor());
        return request;
    }

    private void arrived(int fragment, int generationThen, Chunk chunk, Throwable failure, long deadlineNs) {
        if (closed || generationThen != generation) {
            if (chunk != null) {
                chunk.release();
            }
            if (!closed) {
                synchronized (planLock) {
                    held--;
                }
            }
            return;
        }
        if (failure != null) {
            glitch();
            lost.add(fragment);
            synchronized (planLock) {
                held--;
            }
            LOG.warn("stream {}: fragment {} of {} could not be read: {}", id, fragment, lease.object().name(),
                failure.getMessage());
        } else {
            ready.put(fragment, new Ready(fragment, chunk, deadlineNs));
        }
        pump();
    }

    /** The sender: fragments in order, each when the client's rate allows, while the channel is writable. */
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
        while (lost.remove(nextToSend)) {
            nextToSend++;
        }
        if (nextToSend >= total) {
            write(new End());
            finish(null);
            ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
            return;
        }
        Ready queued = ready.remove(nextToSend);
        if (queued == null) {
            return;
        }
        Ready next = queued.deadlineNs() == FIRST_DEADLINE
            ? new Ready(queued.fragment(), queued.chunk(), acceptNs + disks.roundNs()) : queued;
        inSender = true;
        int generationNow = generation;
        sender.offer(new StreamSender.Packet(this, ctx.channel(), next.deadlineNs(),
            next.chunk().data().remaining() + FrameCodec.DATA_PREFIX_LENGTH,
            Math.max(1, (long) (profile.maxReceiveBytesPerSecond() * rateShare)),
            () -> ctx.executor().execute(() -> transmit(next, generationNow))));
    }

    /** The sender's turn for this stream came: write the fragment, then hand over the next. */
    private void transmit(Ready next, int generationThen) {
        inSender = false;
        if (finished || generationThen != generation) {
            next.chunk().release();
            if (!finished) {
                synchronized (planLock) {
                    held--;
                }
                pump();
            }
            return;
        }
        send(next, disks.clock().nanoTime());
        nextToSend++;
        pump();
    }

    private void send(Ready next, long nowNs) {
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
        long deadlineNs = next.deadlineNs();
        ctx.writeAndFlush(frame).addListener(future -> {
            next.chunk().release();
            synchronized (planLock) {
                held--;
            }
            if (future.isSuccess() && disks.clock().nanoTime() - deadlineNs > 0) {
                glitch();
            }
        });
    }

    /**
     * Moves the stream: what was queued is dropped and, when the stream holds fewer than two
     * fragments once that is done, the new position's fragment is read at once, as a new stream's
     * first is, due one round from now; otherwise the next round reads it. A player so resumes
     * after a seek in about one IO rather than up to a round later.
     */
    private void seek(long positionNs) {
        int fragment = fragmentAt(prepared.object().media(), positionNs);
        boolean readNow;
        int generationNow;
        synchronized (planLock) {
            generationNow = ++generation;
            held -= ready.size();
            readNow = held < 2 && fragment < prepared.positions().length;
            if (readNow) {
                held++;
            }
            nextToRead = readNow ? fragment + 1 : fragment;
            lastPlannedRound = -1;
        }
        ready.values().forEach(waiting -> waiting.chunk().release());
        ready.clear();
        lost.clear();
        nextToSend = fragment;
        discontinuity = true;
        if (readNow) {
            long deadlineNs = disks.clock().nanoTime() + disks.roundNs();
            disks.readFragmentNow(prepared, fragment, id).whenCompleteAsync((chunk, error) ->
                arrived(fragment, generationNow, chunk, error, deadlineNs), ctx.executor());
        }
    }

    private static int fragmentAt(MediaIndex media, long positionNs) {
        List<Fragment> fragments = media.fragments();
        int found = 0;
        for (int i = 0; i < fragments.size(); i++) {
            if (fragments.get(i).startNs() <= positionNs) {
                found = i;
            }
        }
        return found;
    }

    private void glitch() {
        glitches++;
        registry.glitch();
    }

    private void reject(RejectReason reason, int retryAfterSeconds, String message) {
        write(new Reject(reason, retryAfterSeconds, message));
    }

    private void error(ErrorCode code, String message) {
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
        closed = true;
        registry.remove(this);
        sender.forget(this);
        ready.values().forEach(waiting -> waiting.chunk().release());
        ready.clear();
        if (admitted) {
            admission.release(Integer.toString(id));
            disks.buffers().releaseStream(id);
            lease.close();
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

    /**
     * A client's REPORT: if it has received less than the server sent, by more than two of the
     * stream's largest fragments, the data is piling up in the network. The sender then halves the
     * client's rate (the warning); if it is still that far behind {@link #BEHIND_REPORTS} reports
     * later, the stream is ended. Caught up again, the client gets its full rate back.
     */
    private void report(Report report) {
        if (!admitted || acceptNs == 0) {
            return;
        }
        long behind = bytesSent - report.bytesReceived();
        long threshold = 2 * peakFragmentBytes;
        if (behind > threshold) {
            reportsBehind++;
            if (reportsBehind == 1) {
                rateShare = 0.5;
                LOG.warn("stream {}: the client is {} bytes behind what was sent; halving its rate", id, behind);
            } else if (reportsBehind >= BEHIND_REPORTS) {
                error(ErrorCode.CLIENT_TIMEOUT, "the client fell " + behind + " bytes behind and did not catch up");
            }
        } else if (behind <= threshold / 2) {
            reportsBehind = 0;
            rateShare = 1;
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

    /** How many glitches this stream had. */
    long glitches() {
        return glitches;
    }
}
