package io.rondo.server.stream;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.content.ingest.Directory;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.cycle.CombinationSettings;
import io.rondo.scheduler.cycle.Step;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.scheduler.exec.AgentThreads;
import io.rondo.scheduler.exec.RoundClock;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.live.LiveRecordings;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.net.Transport;

import io.rondo.server.observe.AdmissionLog;
import org.agrona.concurrent.EpochClock;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * The stream protocol over TCP (docs/stream-protocol.md): one {@link StreamSession} per
 * connection, admission control in front of every stream, and the round plan that gives the
 * disks their C-requests.
 */
public final class StreamServer implements AutoCloseable {

    /** How many pauses of a millisecond {@link #endStreams} waits at most for the streams to go. */
    private static final int END_WAIT_MS = 2_000;

    private final EventLoopGroup group;
    private final io.netty.channel.Channel channel;
    private final StreamRegistry registry;
    private final AdmissionController admission;
    private final CycleControl cycles;
    private final StreamSender sender;
    private final AgentThreads threads;
    private final StreamSettings settings;
    /** A new connection's session, from the directory and disks it reads. */
    private final BiFunction<Directory, DiskRuntime, SessionServices> sessions;
    private final AllowedOrigins origins;
    private final Drain drain;
    private final HlsSessions hls;

    private StreamServer(EventLoopGroup group, io.netty.channel.Channel channel, StreamRegistry registry,
                         AdmissionController admission, CycleControl cycles, StreamSender sender, AgentThreads threads,
                         StreamSettings settings, BiFunction<Directory, DiskRuntime, SessionServices> sessions,
                         Drain drain, HlsSessions hls) {
        this.cycles = cycles;
        this.hls = hls;
        this.group = group;
        this.channel = channel;
        this.registry = registry;
        this.admission = admission;
        this.sender = sender;
        this.threads = threads;
        this.settings = settings;
        this.sessions = sessions;
        this.drain = drain;
        this.origins = new AllowedOrigins(settings.allowedOrigins());
    }

    /**
     * Binds the stream port. Call before {@link DiskRuntime#start()}: it installs the round plan.
     */
    public static StreamServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                     AdmissionConfig config, EpochClock epochClock) throws InterruptedException {
        return start(address, directory, disks, config, StreamSettings.defaults(), epochClock);
    }

    /**
     * Binds the stream port with the limits {@code settings} gives. Call before
     * {@link DiskRuntime#start()}: it installs the round plan.
     */
    public static StreamServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                     AdmissionConfig config, StreamSettings settings, EpochClock epochClock)
        throws InterruptedException {
        return start(address, directory, disks, config, settings, ConnectionLimit.unlimited("stream"), epochClock);
    }

    /**
     * Binds the stream port as {@link #start(InetSocketAddress, Directory, DiskRuntime, AdmissionConfig,
     * StreamSettings, EpochClock)}, holding no more connections than {@code limit} allows: one more is
     * told ERROR TOO_MANY_CONNECTIONS and closed before it can send a frame.
     *
     * <p>Every deadline of the streams (their rounds, their fragments', their clients') is on the
     * disks' clock ({@link DiskRuntime#clock()}), the one the round clock starts rounds by; the
     * wall clock {@code epochClock} only stamps what people read: when a stream opened, when
     * admission decided.
     */
    public static StreamServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                     AdmissionConfig config, StreamSettings settings, ConnectionLimit limit,
                                     EpochClock epochClock) throws InterruptedException {
        return start(address, directory, disks, config, settings, limit, epochClock, Publishing.NONE);
    }

    /**
     * Binds the stream port as {@link #start(InetSocketAddress, Directory, DiskRuntime, AdmissionConfig,
     * StreamSettings, ConnectionLimit, EpochClock)}, taking publishers too: their recordings'
     * writes go in the same rounds as the streams' reads.
     */
    public static StreamServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                     AdmissionConfig config, StreamSettings settings, ConnectionLimit limit,
                                     EpochClock epochClock, Publishing publishing) throws InterruptedException {
        return start(address, directory, disks, config, settings, limit, epochClock, publishing,
            CycleControl.defaults(disks.roundNs()));
    }

    /**
     * Binds the stream port as {@link #start(InetSocketAddress, Directory, DiskRuntime, AdmissionConfig,
     * StreamSettings, ConnectionLimit, EpochClock, Publishing)}, combining streams and adapting the
     * time cycle under {@code combination} (papers/003), from one round.
     */
    public static StreamServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                     AdmissionConfig config, StreamSettings settings, ConnectionLimit limit,
                                     EpochClock epochClock, Publishing publishing, CombinationSettings combination)
        throws InterruptedException {
        return start(address, directory, disks, config, settings, limit, epochClock, publishing, combination,
            Elsewhere.NONE);
    }

    /**
     * Binds the stream port as {@link #start(InetSocketAddress, Directory, DiskRuntime, AdmissionConfig,
     * StreamSettings, ConnectionLimit, EpochClock, Publishing, CombinationSettings)}, in a cluster: an
     * OPEN this node cannot serve (it does not hold the object, or has no room for it) is answered
     * REDIRECT to the node {@code elsewhere} names, if the client follows redirects.
     */
    public static StreamServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                     AdmissionConfig config, StreamSettings settings, ConnectionLimit limit,
                                     EpochClock epochClock, Publishing publishing, CombinationSettings combination,
                                     Elsewhere elsewhere) throws InterruptedException {
        StreamRegistry registry = new StreamRegistry(epochClock);
        Drain drain = new Drain();
        LiveRecordings recordings = publishing.recordings();
        AdmissionController admission = new AdmissionController(disks.models(),
            config.withRound(Duration.ofNanos(disks.roundNs())).withBufferCeilingBytes(disks.buffers().ceilingBytes()),
            disks.clock());
        CycleControl cycles = new CycleControl(admission, registry.combinable(), combination,
            disks.roundNs());
        disks.plan(new RoundClock.RoundPlan() {
            @Override
            public List<? extends ContinuousRequest> continuousFor(int disk, long round, long startNs) {
                List<ContinuousRequest> requests = new ArrayList<>(registry.continuousFor(disk, round, startNs));
                if (recordings != null) {
                    requests.addAll(recordings.writesFor(disk, round, startNs));
                }
                return requests;
            }

            @Override
            public void roundStarted(long round, long startNs) {
                cycles.roundStarted(round);
            }
        });
        for (String disk : disks.diskNames()) {
            disks.watch(disk).feedRounds(round -> admission.roundEnded(disk, round));
        }
        StreamSender sender = new StreamSender(disks.clock(), StreamSender.MAX_STREAMS);
        AgentThreads threads = new AgentThreads(disks.threadingMode());
        threads.start(sender, sender.idleStrategy());
        InitSegments initSegments = new InitSegments(settings.initSegmentsKept());
        Redirects redirects = new Redirects(elsewhere, registry.log());
        BiFunction<Directory, DiskRuntime, SessionServices> sessions = (objects, reader) -> new SessionServices(reader,
            new StreamAdmission(objects, reader, admission, registry, recordings, settings.clientBuffers(), drain),
            registry, sender, initSegments, settings, reader.clock(), epochClock, publishing, redirects);
        EventLoopGroup group = Transport.group(0, "rondo-stream");
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(Transport.serverChannel())
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(settings.writeBufferLowBytes(),
                settings.writeBufferHighBytes()))
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel socket) {
                    String refused = limit.admit(socket);
                    if (refused != null) {
                        ConnectionLimit.refuse(socket, Unpooled.wrappedBuffer(FrameCodec.encode(
                            new ErrorFrame(ErrorCode.TOO_MANY_CONNECTIONS.code(), refused))));
                        return;
                    }
                    socket.pipeline().addLast(new FrameInboundDecoder(settings.maxClientFrameBytes()))
                        .addLast(new StreamSession(sessions.apply(directory, disks), null));
                }
            });
        io.netty.channel.Channel channel;
        try {
            channel = Transport.bind(bootstrap, address, " for streams", "--stream-port");
        } catch (InterruptedException | RuntimeException e) {
            threads.close();
            group.shutdownGracefully(100, 5_000, TimeUnit.MILLISECONDS);
            throw e;
        }
        HlsSessions hls = new HlsSessions(sessions.apply(directory, disks), HlsSessions.LEAD_NS);
        return new StreamServer(group, channel, registry, admission, cycles, sender, threads, settings, sessions,
            drain, hls);
    }

    /**
     * One duty cycle of the sender, in the {@link io.rondo.scheduler.exec.ThreadingMode#INVOKER
     * invoker} mode (the disks' mode).
     *
     * @return the work done: 0 when no fragment was due
     */
    public int invoke() {
        return threads.invoke();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** The HLS playback sessions (docs/hls.md): streams whose clients ask for their fragments over HTTP. */
    public HlsSessions hls() {
        return hls;
    }

    /** Streams being served now. */
    public int activeStreams() {
        return registry.active();
    }

    /** Fragment bytes all streams sent so far, over TCP and WebSocket. */
    public long sentBytes() {
        return registry.sentBytes();
    }

    /** Admitted streams whose buffers are reserved as {@code mode} says (papers/004 Section 4). */
    public int streamsIn(BufferMode mode) {
        return registry.streamsIn(mode);
    }

    /** Streams ended by their guard so far: their client took a fragment slower than it declared. */
    public long guardEndedStreams() {
        return registry.guardEndedStreams();
    }

    /** Glitches of all streams so far. */
    public long glitches() {
        return registry.glitches();
    }

    /** Whether the server takes new streams: an operator's drain, or a stop. */
    public Drain drain() {
        return drain;
    }

    public AdmissionController admission() {
        return admission;
    }

    /** The time cycle now (papers/003): the rounds between a stream's reads, as a length. */
    public long cycleNs() {
        return cycles.cycleNs();
    }

    /**
     * Sets the time cycle to {@code cycleNs}, every stream's reads moved to it at once.
     *
     * @throws IllegalArgumentException if it is not a power of two of rounds within the bounds, or
     *                                  the streams at that cadence would not fit the disks and the buffers
     */
    public void requestCycle(long cycleNs) {
        cycles.requestCycle(cycleNs);
    }

    /** The streams read in combined pairs now. */
    public int combinedStreams() {
        return cycles.combined();
    }

    /** How many times stream combination combined, split, doubled and shortened so far, by operation. */
    public Map<Step.Operation, Long> cycleOperations() {
        return cycles.operations();
    }

    /** Every stream's admission decision and end, counted and kept for the admin API. */
    public AdmissionLog admissionLog() {
        return registry.log();
    }

    /** The streams being served now, ordered by id, each as its event loop sees it. */
    public CompletableFuture<List<StreamStatus>> streams() {
        List<CompletableFuture<StreamStatus>> each = registry.streams().stream().map(Served::status).toList();
        return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).thenApply(done -> each.stream()
            .map(CompletableFuture::join).sorted(Comparator.comparingLong(StreamStatus::id)).toList());
    }

    /**
     * Ends a stream as an operator: its client gets ERROR ENDED_BY_OPERATOR with {@code why}, and its
     * admission and buffers are released. False if no stream has that id.
     */
    public boolean end(long id, String why) {
        for (Served stream : registry.streams()) {
            if (stream.id() == id) {
                stream.endWith(ErrorCode.ENDED_BY_OPERATOR, why);
                return true;
            }
        }
        return false;
    }

    /** How many streams read the object of catalog id {@code objectId}, whatever it is named now. */
    public int streamsOf(long objectId) {
        return (int) registry.streams().stream().filter(stream -> stream.objectId() == objectId).count();
    }

    /** Ends, as an operator, every stream of the object of catalog id {@code objectId}; returns how many. */
    public int endStreamsOf(long objectId, String why) {
        int ended = 0;
        for (Served stream : registry.streams()) {
            if (stream.objectId() == objectId) {
                stream.endWith(ErrorCode.ENDED_BY_OPERATOR, why);
                ended++;
            }
        }
        return ended;
    }

    /**
     * A session for a stream arriving another way (the WebSocket binding on the HTTP port).
     *
     * @param object the object the connection's URL names ({@code /stream/NAME}), which its OPEN must
     *               name too; null if the URL names none
     */
    public io.netty.channel.ChannelHandler newSession(Directory directory, DiskRuntime disks, String object) {
        return new StreamSession(sessions.apply(directory, disks), object);
    }

    /**
     * A recording published another way (an HTTP PUT on the admin port): judged and admitted as a
     * PUBLISH is, its events told to {@code events} on {@code loop}, the carrier's event loop, where
     * every call to it must be made.
     *
     * @param client the publisher's address, for the logs
     */
    public Publication publication(Directory directory, DiskRuntime disks, String client, Executor loop,
                                   Publication.Events events) {
        return new Publication(sessions.apply(directory, disks), loop, client, events);
    }

    /**
     * Whether a WebSocket upgrade from a page of {@code origin} (null: no Origin header) may open a
     * stream, asked of {@code host} (the request's Host); see {@link AllowedOrigins}.
     */
    public boolean allowsOrigin(String origin, String host) {
        return origins.allows(origin, host);
    }

    /** The limits and deadlines every stream is held to, over TCP and WebSocket alike. */
    public StreamSettings settings() {
        return settings;
    }

    /**
     * Ends every stream, over TCP or WebSocket, with ERROR (shutting down) and waits a moment for
     * them to go: up to {@link #END_WAIT_MS} pauses of a millisecond, counted rather than timed, so
     * that a server on a stepped clock stops too. Safe to call more than once.
     */
    public void endStreams() {
        registry.shutdownAll();
        for (int waited = 0; registry.active() > 0 && waited < END_WAIT_MS; waited++) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    /** Ends every stream, then stops listening. */
    @Override
    public void close() {
        endStreams();
        channel.close().syncUninterruptibly();
        threads.close();
        group.shutdownGracefully(100, 5_000, TimeUnit.MILLISECONDS).syncUninterruptibly();
    }
}
