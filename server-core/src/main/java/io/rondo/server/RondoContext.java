package io.rondo.server;

import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.scheduler.exec.ThreadingMode;
import io.rondo.scheduler.exec.Waiter;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.cluster.Cluster;
import io.rondo.server.config.ConnectionSettings;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.content.Library;
import io.rondo.server.stream.Elsewhere;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a {@link RondoServer} is built from (Aeron's {@code MediaDriver.Context}): fluent
 * setters, each with a default but the library and the disks' models, and {@link #conclude()}
 * to fill the defaults from the configuration and check the whole once.
 */
public final class RondoContext {
    RondoConfig config = RondoConfig.defaults();
    Library library;
    Function<String, DiskProfile> models;
    InetSocketAddress httpAddress;
    InetSocketAddress streamAddress;
    InetSocketAddress adminAddress;
    int agentPort = -1;
    boolean emulate;
    DiskIo diskIo;
    Function<BlockDevice, BlockDevice> device = Function.identity();
    AdmissionConfig admission;
    HttpSettings httpSettings;
    StreamSettings streamSettings;
    ConnectionSettings connections;
    AdminTokens tokens;
    NanoClock nanoClock;
    EpochClock epochClock;
    Clock clock;
    ThreadingMode threadingMode = ThreadingMode.DEDICATED;
    Waiter waiter;
    Cluster cluster;
    Elsewhere elsewhere;
    boolean concluded;

    /** The configuration every other default comes from (default: {@link RondoConfig#defaults()}). */
    public RondoContext config(RondoConfig config) {
        this.config = config;
        return this;
    }

    public RondoConfig config() {
        return config;
    }

    /** The library served: its catalog, its disks and its ingest (required; the caller closes it). */
    public RondoContext library(Library library) {
        this.library = library;
        return this;
    }

    public Library library() {
        return library;
    }

    /** One model for every disk. */
    public RondoContext model(DiskProfile model) {
        return models(disk -> model);
    }

    /** Each disk's model by the disk's name (required): as profiled, configured or named. */
    public RondoContext models(Function<String, DiskProfile> models) {
        this.models = models;
        return this;
    }

    /** Where HTTP listens (default: an ephemeral port on the loopback address). */
    public RondoContext httpAddress(InetSocketAddress address) {
        this.httpAddress = address;
        return this;
    }

    /** Where the stream protocol listens (default: an ephemeral port on the loopback address). */
    public RondoContext streamAddress(InetSocketAddress address) {
        this.streamAddress = address;
        return this;
    }

    /** Where the admin API listens (default: an ephemeral port on the loopback address). */
    public RondoContext adminAddress(InetSocketAddress address) {
        this.adminAddress = address;
        return this;
    }

    /**
     * The port of the agent HAProxy's {@code agent-check} reads, on the HTTP address's host: 0 for a
     * free one, negative (the default) for no agent.
     */
    public RondoContext agentPort(int port) {
        this.agentPort = port;
        return this;
    }

    /** True: disks complete each IO when the model says, with real bytes (default false). */
    public RondoContext emulate(boolean emulate) {
        this.emulate = emulate;
        return this;
    }

    public boolean emulate() {
        return emulate;
    }

    /** The disk reader (default: {@link DiskIo#best()}). */
    public RondoContext diskIo(DiskIo diskIo) {
        this.diskIo = diskIo;
        return this;
    }

    /** Wraps each disk's device: a test's faults or checks between executor and disk. */
    public RondoContext device(Function<BlockDevice, BlockDevice> device) {
        this.device = device;
        return this;
    }

    /** Admission control's settings (default: the configuration's). */
    public RondoContext admission(AdmissionConfig admission) {
        this.admission = admission;
        return this;
    }

    /** HTTP's limits and timeouts (default: the configuration's {@code http:}). */
    public RondoContext httpSettings(HttpSettings settings) {
        this.httpSettings = settings;
        return this;
    }

    /** The stream protocol's limits and deadlines (default: the configuration's {@code stream:}). */
    public RondoContext streamSettings(StreamSettings settings) {
        this.streamSettings = settings;
        return this;
    }

    /** How many connections each port holds (default: the configuration's {@code connections:}). */
    public RondoContext connections(ConnectionSettings connections) {
        this.connections = connections;
        return this;
    }

    /** The admin API's tokens (default: those in the data folder's rondo/, written if missing). */
    public RondoContext tokens(AdminTokens tokens) {
        this.tokens = tokens;
        return this;
    }

    public AdminTokens tokens() {
        return tokens;
    }

    /** The monotonic clock of rounds, deadlines and timeouts (default: the machine's). */
    public RondoContext nanoClock(NanoClock clock) {
        this.nanoClock = clock;
        return this;
    }

    /** The wall clock of timestamps, in ms since the epoch (default: the machine's). */
    public RondoContext epochClock(EpochClock clock) {
        this.epochClock = clock;
        return this;
    }

    /** The wall clock of HTTP dates and the admin API's times (default: the machine's, in UTC). */
    public RondoContext clock(Clock clock) {
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
    public RondoContext threadingMode(ThreadingMode mode) {
        this.threadingMode = mode;
        return this;
    }

    /** How an emulated disk waits (default: for real; a stepped test moves its clock instead). */
    public RondoContext waiter(Waiter waiter) {
        this.waiter = waiter;
        return this;
    }

    /** The cluster this server is a node of (default: none, {@link Cluster#single()}). */
    public RondoContext cluster(Cluster cluster) {
        this.cluster = cluster;
        return this;
    }

    public Cluster cluster() {
        return cluster;
    }

    /**
     * Where an OPEN this node cannot serve (it does not hold the object, or has no room) is sent by
     * REDIRECT (default: the cluster's other nodes, from what they list and their agents say; none for a single
     * server).
     */
    public RondoContext elsewhere(Elsewhere elsewhere) {
        this.elsewhere = Objects.requireNonNull(elsewhere, "elsewhere");
        return this;
    }

    public Elsewhere elsewhere() {
        return elsewhere;
    }

    /**
     * Fills every default from the configuration and the machine, and checks the whole, once.
     *
     * @throws IllegalStateException when the library or the disks' models are missing
     * @throws IOException when the admin tokens cannot be read or written
     */
    public RondoContext conclude() throws IOException {
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
        cluster = cluster != null ? cluster : Cluster.single();
        if (tokens == null) {
            tokens = AdminTokens.load(config.adminSettings(), library.dataFolder(), Map.of());
        }
        concluded = true;
        return this;
    }
}
