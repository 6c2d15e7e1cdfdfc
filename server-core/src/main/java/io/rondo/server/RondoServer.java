package io.rondo.server;

import io.rondo.server.admin.AdminApi;
import io.rondo.server.admin.AdminRouter;
import io.rondo.server.admin.AdminServer;
import io.rondo.server.admin.DrainResource;
import io.rondo.server.admin.LiveResource;
import io.rondo.server.admin.ObjectsResource;
import io.rondo.server.admin.PolicyControl;
import io.rondo.server.admin.PolicyFile;
import io.rondo.server.cluster.ClusterRuntime;
import io.rondo.server.cluster.agent.AgentReport;
import io.rondo.server.cluster.agent.AgentServer;
import io.rondo.server.cluster.agent.DiskHealth;
import io.rondo.server.config.AdminSettings;
import io.rondo.server.config.DirectMemory;
import io.rondo.server.config.RondoConfig;
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

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A whole Rondo server, built and started in one place from a {@link RondoContext}: the disks with
 * their executors, round clock and generator; the stream server with its sender and admission;
 * metrics and the event stream; the admin API and its server; the agent HAProxy checks, if asked
 * for; the HTTP server. {@code rondo serve} starts one from its configuration, a test from a
 * RondoContext of its own (ephemeral ports, an emulated disk, a stepped clock). Closing stops them
 * in the reverse order of their start; the library is the caller's.
 */
public final class RondoServer implements AutoCloseable {

    private final RondoContext context;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private DiskRuntime disks;
    private StreamServer streams;
    private LiveRecordings recordings;
    private RondoMetrics metrics;
    private EventHub events;
    private PolicyControl policy;
    private AdminApi api;
    /** How long a stopping node with an agent says {@code drain} before it ends its streams. */
    private static final long AGENT_GRACE_NS = TimeUnit.MILLISECONDS.toNanos(1500);

    private ClusterRuntime cluster;
    private AdminServer admin;
    private AgentReport agent;
    private AgentServer agentServer;
    private HttpServer http;
    private ConnectionLimit httpLimit;
    private ConnectionLimit streamLimit;
    private ConnectionLimit adminLimit;

    private RondoServer(RondoContext context) {
        this.context = context;
    }

    /**
     * Builds and starts the server {@code context} describes, {@link RondoContext#conclude() concluding}
     * it first. A part that fails to start closes the parts started before it.
     *
     * @throws IOException when a disk, a port or a file the server needs cannot be had
     * @throws InterruptedException when interrupted while a server binds its port
     */
    public static RondoServer start(RondoContext context) throws IOException, InterruptedException {
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
        cluster = started(ClusterRuntime.start(context.cluster, context.tokens.nodeToken(), context.nanoClock));
        streams = started(StreamServer.start(context.streamAddress, library.directory(), disks,
            context.admission, context.streamSettings, streamLimit, context.epochClock,
            new Publishing(recordings, context.tokens::canPublish), config.schedulerSettings().combinationSettings(),
            context.elsewhere != null ? context.elsewhere : cluster.elsewhere()));
        metrics = new RondoMetrics();
        events = new EventHub(() -> AdminApi.hello(disks));
        agent = new AgentReport(streams.admission(), DiskHealth.of(disks), streams.drain()::reason);
        ServerMetrics.bind(metrics, events, disks, streams, config.responseBoundMs());
        ServerMetrics.bindLive(metrics, recordings.totals());
        ServerMetrics.bindAgent(metrics, agent, streams.drain());
        policy = new PolicyControl(disks, streams.admission(), events, config.policy(), config.responseBoundMs(),
            new PolicyFile(library.dataFolder().resolve("rondo").resolve(PolicyControl.FILE)), DirectMemory.maxBytes(),
            streams::requestCycle);
        AdminSettings adminSettings = config.adminSettings();
        api = new AdminApi(disks, streams, policy, events, metrics, adminSettings.metricsPublic(), context.clock);
        AdminRouter router = api.routes(new AdminRouter());
        new ObjectsResource(library, streams, adminSettings.maxUploadBytes(), cluster).routes(router);
        new LiveResource(recordings, streams, library.directory(), disks).routes(router);
        new DrainResource(streams.drain(), agent).routes(router);
        admin = started(AdminServer.start(context.adminAddress, router, context.tokens, metrics,
            adminSettings.maxUploadBytes(), adminSettings.tlsCert(), adminSettings.tlsKey(),
            context.httpSettings.headerTimeoutMs(), context.clock, context.nanoClock, adminLimit));
        if (context.agentPort >= 0) {
            agentServer = started(AgentServer.start(new InetSocketAddress(context.httpAddress.getHostString(),
                context.agentPort), agent::line));
        }
        disks.start();
        http = started(HttpServer.on(context.httpAddress, library.directory(), disks)
                .streams(streams)
                .settings(context.httpSettings)
                .metrics(metrics)
                .clock(context.clock)
                .limit(httpLimit)
                .peers(cluster.peers())
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
     * Begins an orderly stop: new streams are refused and the agent tells the balancer
     * {@code drain}, the health probes say the server is draining, and every stream is ended with a
     * reason its client is told; with an agent, a second and a half after, so that HAProxy (which
     * reads it every second) sends the clients that reconnect to other nodes.
     */
    public void drain() {
        streams.drain().stopping();
        api.draining();
        if (agentServer != null) {
            // HAProxy reads the agent every second: let it see drain before the streams end, so their
            // clients reconnect to other nodes rather than here.
            LockSupport.parkNanos(AGENT_GRACE_NS);
        }
        streams.endStreams();
    }

    public RondoContext context() {
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

    /** What the node's agent tells HAProxy: its {@link AgentReport#line() line} is reckoned afresh at each call. */
    public AgentReport agent() {
        return agent;
    }

    /** Where the agent HAProxy checks listens; empty when {@link RondoContext#agentPort(int)} asked for none. */
    public Optional<InetSocketAddress> agentAddress() {
        return Optional.ofNullable(agentServer).map(AgentServer::address);
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

    /** Stops the HTTP server, the agent, the admin server, the stream server and the disks, in that order. */
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
}
