package io.rondo.server;

import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.scheduler.exec.ThreadingMode;
import io.rondo.scheduler.exec.Waiter;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.admin.AdminApi;
import io.rondo.server.admin.AdminRouter;
import io.rondo.server.admin.AdminServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.admin.LiveResource;
import io.rondo.server.admin.ObjectsResource;
import io.rondo.server.admin.PolicyControl;
import io.rondo.server.admin.PolicyFile;
import io.rondo.server.config.AdminSettings;
import io.rondo.server.config.ConnectionSettings;
import io.rondo.server.config.DirectMemory;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.content.Library;
import io.rondo.server.http.HttpServer;
import io.rondo.server.observe.EventHub;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.live.LiveRecordings;
import io.rondo.server.live.LiveRetention;
import io.rondo.server.stream.Publishing;
import io.rondo.server.stream.StreamServer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.function.Function;

/**
 * A whole Rondo server, built and started in one place from a {@link Context}: the disks with
 * their executors, round clock and generator; the stream server with its sender and admission;
 * metrics and the event stream; the admin API and its server; the HTTP server. {@code rondo serve}
 * starts one from its configuration, a test from a Context of its own (ephemeral ports, an
 * emulated disk, a stepped clock). Closing stops them in the reverse order of their start; the
 * library is the caller's.
 */
public final class RondoServer implements AutoCloseable {

    private final Context context;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private DiskRuntime disks;
    private StreamServer streams;
    private LiveRecordings recordings;
    private RondoMetrics metrics;
    private EventHub events;
    private PolicyControl policy;
    private AdminApi api;
    private AdminServer admin;
    private HttpServer http;
    private ConnectionLimit httpLimit;
    private ConnectionLimit streamLimit;
    private ConnectionLimit adminLimit;

    private RondoServer(Context context) {
        this.context = context;
    }

    /**
     * Builds and starts the server {@code context} describes, {@link Context#conclude() concluding}
     * it first. A part that fails to start closes the parts started before it.
     *
     * @throws IOException when a disk, a port or a file the server needs cannot be had
     * @throws InterruptedException when interrupted while a server binds its port
     */
    public static RondoServer start(Context context) throws IOException, InterruptedException {
        context.conclude();
        RondoServer server = new RondoServer(context);
        try {
            server.startParts();
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void startParts() throws IOException, InterruptedException {
        RondoConfig config = context.config;
        Library library = context.library;
        httpLimit = context.connections.httpLimit();
        streamLimit = context.connections.streamsLimit();
        adminLimit = context.connections.adminLimit();
        disks = started(new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
            .policy(config.schedulingPolicy())
            .models(context.models)
            .roundNs(config.roundMs() * 1_000_000L)
            .bufferCeilingBytes(config.buffersCeilingBytes())
            .emulate(context.emulate)
            .diskIo(context.diskIo)
            .device(context.device)
            .settings(config.diskSettings())
            .clocks(context.nanoClock, context.epochClock)
            .threadingMode(context.threadingMode)
            .waiter(context.waiter)));
        library.directory().whenDeletedAndUnread(disks::forget);
        recordings = started(new LiveRecordings(library.store(), disks, config.liveSettings(), context.clock));
        recordings.recover();
        library.directory().whileWritten(id -> recordings.byId(id).isPresent());
        recordings.keep(new LiveRetention(library.directory(), library.store().catalog()::withPrefix,
            id -> recordings.byId(id).isPresent(), config.liveSettings().retention(), context.clock));
        streams = started(StreamServer.start(context.streamAddress, library.directory(), disks,
            context.admission, context.streamSettings, streamLimit, context.epochClock,
            new Publishing(recordings, context.tokens::canPublish)));
        metrics = new RondoMetrics();
        events = new EventHub(() -> AdminApi.hello(disks));
        ServerMetrics.bind(metrics, events, disks, streams, config.responseBoundMs());
        ServerMetrics.bindLive(metrics, recordings.totals());
        policy = new PolicyControl(disks, streams.admission(), events, config.policy(), config.responseBoundMs(),
            new PolicyFile(library.dataFolder().resolve("rondo").resolve(PolicyControl.FILE)), DirectMemory.maxBytes());
        AdminSettings adminSettings = config.adminSettings();
        api = new AdminApi(disks, streams, policy, events, metrics, adminSettings.metricsPublic(), context.clock);
        AdminRouter router = api.routes(new AdminRouter());
        new ObjectsResource(library, streams, adminSettings.maxUploadBytes()).routes(router);
        new LiveResource(recordings, streams, library.directory(), disks).routes(router);
        admin = started(AdminServer.start(context.adminAddress, router, context.tokens, metrics,
            adminSettings.maxUploadBytes(), adminSettings.tlsCert(), adminSettings.tlsKey(),
            context.httpSettings.headerTimeoutMs(), context.clock, context.nanoClock, adminLimit));
        disks.start();
        http = started(HttpServer.on(context.httpAddress, library.directory(), disks)
                .streams(streams)
                .settings(context.httpSettings)
                .metrics(metrics)
                .clock(context.clock)
                .limit(httpLimit)
                .start());
        api.ready(new AdminApi.Addresses(url("http", http.address()), url("rondo", streams.address())));
    }

    private <T extends AutoCloseable> T started(T part) {
        started.push(part);
        return part;
    }

    /** The URL of a listening address: {@code scheme://host:port/}, an IPv6 host in brackets. */
    public static String url(String scheme, InetSocketAddress address) {
        String host = address.getHostString();
        return scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort() + "/";
    }

    /**
     * The INVOKER mode's step: one duty cycle of each of the disks' agents (generator, executors,
     * round clock) and of the sender.
     *
     * @return the work done: 0 when no agent had any
     */
    public int invoke() {
        return disks.invoke() + streams.invoke();
    }

    /**
     * Begins an orderly stop: the health probes say the server is draining and every stream is
     * ended with a reason its client is told.
     */
    public void drain() {
        api.draining();
        streams.endStreams();
    }

    public Context context() {
        return context;
    }

    public DiskRuntime disks() {
        return disks;
    }

    public StreamServer streams() {
        return streams;
    }

    /** The recordings publishers write. */
    public LiveRecordings recordings() {
        return recordings;
    }

    public HttpServer http() {
        return http;
    }

    public AdminServer admin() {
        return admin;
    }

    public AdminApi api() {
        return api;
    }

    public RondoMetrics metrics() {
        return metrics;
    }

    public EventHub events() {
        return events;
    }

    public PolicyControl policy() {
        return policy;
    }

    /** The HTTP port's connection limit, with the count of the connections it holds. */
    public ConnectionLimit httpLimit() {
        return httpLimit;
    }

    /** The stream port's connection limit, with the count of the connections it holds. */
    public ConnectionLimit streamLimit() {
        return streamLimit;
    }

    /** The admin port's connection limit, with the count of the connections it holds. */
    public ConnectionLimit adminLimit() {
        return adminLimit;
    }

    /** Stops the HTTP server, the admin server, the stream server and the disks, in that order. */
    @Override
    public void close() {
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                // Each part is stopped whatever the one before it did; a part's close logs its own trouble.
                continue;
            }
        }
    }

    /**
     * What a {@link RondoServer} is built from (Aeron's {@code MediaDriver.Context}): fluent
     * setters, each with a default but the library and the disks' models, and {@link #conclude()}
     * to fill the defaults from the configuration and check the whole once.
     */
    public static final class Context {
        private RondoConfig config = RondoConfig.defaults();
        private Library library;
        private Function<String, DiskProfile> models;
        private InetSocketAddress httpAddress;
        private InetSocketAddress streamAddress;
        private InetSocketAddress adminAddress;
        private boolean emulate;
        private DiskIo diskIo;
        private Function<BlockDevice, BlockDevice> device = Function.identity();
        private AdmissionConfig admission;
        private HttpSettings httpSettings;
        private StreamSettings streamSettings;
        private ConnectionSettings connections;
        private AdminTokens tokens;
        private NanoClock nanoClock;
        private EpochClock epochClock;
        private Clock clock;
        private ThreadingMode threadingMode = ThreadingMode.DEDICATED;
        private Waiter waiter;
        private boolean concluded;

        /** The configuration every other default comes from (default: {@link RondoConfig#defaults()}). */
        public Context config(RondoConfig config) {
            this.config = config;
            return this;
        }

        public RondoConfig config() {
            return config;
        }

        /** The library served: its catalog, its disks and its ingest (required; the caller closes it). */
        public Context library(Library library) {
            this.library = library;
            return this;
        }

        public Library library() {
            return library;
        }

        /** One model for every disk. */
        public Context model(DiskProfile model) {
            return models(disk -> model);
        }

        /** Each disk's model by the disk's name (required): as profiled, configured or named. */
        public Context models(Function<String, DiskProfile> models) {
            this.models = models;
            return this;
        }

        /** Where HTTP listens (default: an ephemeral port on the loopback address). */
        public Context httpAddress(InetSocketAddress address) {
            this.httpAddress = address;
            return this;
        }

        /** Where the stream protocol listens (default: an ephemeral port on the loopback address). */
        public Context streamAddress(InetSocketAddress address) {
            this.streamAddress = address;
            return this;
        }

        /** Where the admin API listens (default: an ephemeral port on the loopback address). */
        public Context adminAddress(InetSocketAddress address) {
            this.adminAddress = address;
            return this;
        }

        /** True: disks complete each IO when the model says, with real bytes (default false). */
        public Context emulate(boolean emulate) {
            this.emulate = emulate;
            return this;
        }

        public boolean emulate() {
            return emulate;
        }

        /** The disk reader (default: {@link DiskIo#best()}). */
        public Context diskIo(DiskIo diskIo) {
            this.diskIo = diskIo;
            return this;
        }

        /** Wraps each disk's device: a test's faults or checks between executor and disk. */
        public Context device(Function<BlockDevice, BlockDevice> device) {
            this.device = device;
            return this;
        }

        /** Admission control's settings (default: the configuration's). */
        public Context admission(AdmissionConfig admission) {
            this.admission = admission;
            return this;
        }

        /** HTTP's limits and timeouts (default: the configuration's {@code http:}). */
        public Context httpSettings(HttpSettings settings) {
            this.httpSettings = settings;
            return this;
        }

        /** The stream protocol's limits and deadlines (default: the configuration's {@code stream:}). */
        public Context streamSettings(StreamSettings settings) {
            this.streamSettings = settings;
            return this;
        }

        /** How many connections each port holds (default: the configuration's {@code connections:}). */
        public Context connections(ConnectionSettings connections) {
            this.connections = connections;
            return this;
        }

        /** The admin API's tokens (default: those in the data folder's rondo/, written if missing). */
        public Context tokens(AdminTokens tokens) {
            this.tokens = tokens;
            return this;
        }

        public AdminTokens tokens() {
            return tokens;
        }

        /** The monotonic clock of rounds, deadlines and timeouts (default: the machine's). */
        public Context nanoClock(NanoClock clock) {
            this.nanoClock = clock;
            return this;
        }

        /** The wall clock of timestamps, in ms since the epoch (default: the machine's). */
        public Context epochClock(EpochClock clock) {
            this.epochClock = clock;
            return this;
        }

        /** The wall clock of HTTP dates and the admin API's times (default: the machine's, in UTC). */
        public Context clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public NanoClock nanoClock() {
            return nanoClock;
        }

        /**
         * Agents on threads of their own ({@link ThreadingMode#DEDICATED}, the default), or stepped
         * by the caller with {@link RondoServer#invoke()} ({@link ThreadingMode#INVOKER}).
         */
        public Context threadingMode(ThreadingMode mode) {
            this.threadingMode = mode;
            return this;
        }

        /** How an emulated disk waits (default: for real; a stepped test moves its clock instead). */
        public Context waiter(Waiter waiter) {
            this.waiter = waiter;
            return this;
        }

        /**
         * Fills every default from the configuration and the machine, and checks the whole, once.
         *
         * @throws IllegalStateException when the library or the disks' models are missing
         * @throws IOException when the admin tokens cannot be read or written
         */
        public Context conclude() throws IOException {
            if (concluded) {
                return this;
            }
            if (library == null) {
                throw new IllegalStateException("no library: set library(...)");
            }
            if (models == null) {
                throw new IllegalStateException("no disk models: set model(...) or models(...)");
            }
            InetSocketAddress loopback = new InetSocketAddress("127.0.0.1", 0);
            httpAddress = httpAddress != null ? httpAddress : loopback;
            streamAddress = streamAddress != null ? streamAddress : loopback;
            adminAddress = adminAddress != null ? adminAddress
                : new InetSocketAddress(config.adminSettings().address(), 0);
            diskIo = diskIo != null ? diskIo : DiskIo.best();
            admission = admission != null ? admission : config.admissionConfig();
            httpSettings = httpSettings != null ? httpSettings : config.httpSettings();
            streamSettings = streamSettings != null ? streamSettings : config.streamSettings();
            connections = connections != null ? connections : config.connectionSettings();
            nanoClock = nanoClock != null ? nanoClock : SystemClocks.nanoClock();
            epochClock = epochClock != null ? epochClock : SystemClocks.epochClock();
            clock = clock != null ? clock : SystemClocks.utc();
            waiter = waiter != null ? waiter : Waiter.realTime(nanoClock);
            if (tokens == null) {
                tokens = AdminTokens.load(config.adminSettings(), library.dataFolder(), Map.of());
            }
            concluded = true;
            return this;
        }
    }
}
