package io.rondo.server.cli;

import io.rondo.content.ingest.DemoLibrary;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.admin.AdminUrlFile;
import io.rondo.server.cluster.Cluster;
import io.rondo.server.config.ClusterSettings;
import io.rondo.server.config.AdminSettings;
import io.rondo.server.config.ConnectionSettings;
import io.rondo.server.config.BitRates;
import io.rondo.server.config.MemoryBudget;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.StorageSettings;
import io.rondo.server.content.Library;
import io.rondo.server.content.PlayerFiles;
import io.rondo.server.http.HttpServer;
import io.rondo.server.runtime.DiskModels;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code rondo serve}: the server. Discrete data over HTTP and continuous data over the stream
 * protocol, every byte read through the disks' schedulers, each disk planned and admitted by its
 * own model ({@link DiskModels}).
 */
@Command(name = "serve",
    description = {
        "Serve the library over HTTP: every object at its name, folders as pages, with ranges and conditional "
            + "requests; every byte read through the disks' schedulers. An empty library gets the demo library "
            + "first. Stop with Ctrl-C or SIGTERM.",
        "",
        "Each disk is scheduled and admits streams by its own model: at the first start on a disk its device is "
            + "profiled for a few seconds (as 'rondo profile' does) and the profile is stored in the storage root as "
            + "rondo/disk-profile.json, reused until the device or its size changes. --disk-profile or "
            + "storage.diskProfile names another model."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class ServeCommand implements Callable<Integer> {

    /** How long a SIGTERM waits for connections, disks and the catalog to close. */
    private static final int SHUTDOWN_SECONDS = 15;

    @Spec
    private CommandSpec spec;

    @Mixin
    private LibraryOptions libraryOptions;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
        description = "The HTTP port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    private int port;

    @Option(names = "--stream-port", paramLabel = "PORT", defaultValue = "8554",
        description = "The port of the stream protocol (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    private int streamPort;

    @Option(names = "--admin-port", paramLabel = "PORT", defaultValue = "8081",
        description = "The admin port: the REST API under /api/v1, /metrics, the health probes and the dashboard at "
            + "/admin/, on admin.address (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    private int adminPort;

    @Option(names = "--agent-port", paramLabel = "PORT",
        description = "The port of the agent HAProxy's agent-check reads, on --address: one line of the node's "
            + "headroom (weight, maxconn, drain, down; docs/cluster-agent.md) (default: no agent; 0 picks a free one).")
    private int agentPort = -1;

    @Option(names = "--address", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
        description = "The address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
    private String address;

    @Option(names = "--emulate",
        description = "Complete each disk IO when the disk model says (real bytes, the model's timing); the model is "
            + "the paper's disk (nerjes-1999) unless --disk-profile names one (measured too) or storage.diskProfile "
            + "names a profile.")
    private boolean emulate;

    @Option(names = "--disk-profile", paramLabel = "FILE|NAME",
        description = "The disk model of every disk, instead of storage.diskProfile: measured (each disk's own, "
            + "profiled at the first start on it and stored in its root's rondo/disk-profile.json), nerjes-1999 "
            + "(the disk of papers/001 Table 1) or a profile file, e.g. from 'rondo profile DIR --out FILE'.")
    private String diskProfile;

    @Option(names = "--node", paramLabel = "NAME",
        description = "This server is node NAME of the cluster that rondo.yaml's cluster: section lists: its HTTP, "
            + "stream, admin and agent ports and its address come from that entry unless given here "
            + "(docs/cluster.md).")
    private String node;

    @Override
    public Integer call() throws Exception {
        RondoConfig settings = libraryOptions.settings();
        Cluster cluster = cluster(settings);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be between 0 and 65535, was " + port);
        }
        if (streamPort < 0 || streamPort > 65535) {
            throw new IllegalArgumentException("--stream-port must be between 0 and 65535, was " + streamPort);
        }
        if (adminPort < 0 || adminPort > 65535) {
            throw new IllegalArgumentException("--admin-port must be between 0 and 65535, was " + adminPort);
        }
        if (agentPort < -1 || agentPort > 65535) {
            throw new IllegalArgumentException("--agent-port must be between 0 and 65535, was " + agentPort);
        }
        if (diskProfile != null && !diskProfile.equals(StorageSettings.MEASURED_DISK_PROFILE)) {
            try {
                DiskProfile.resolve(diskProfile);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--disk-profile must be measured, a built-in profile or a profile "
                    + "file: " + e.getMessage(), e);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopped.countDown();
            awaitQuietly(closed);
        }, "rondo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            serve(settings, cluster, out, stopped);
            out.println("Rondo stopped: connections closed, disks idle, catalog closed");
            out.flush();
        } finally {
            closed.countDown();
        }
        return 0;
    }

    private void serve(RondoConfig settings, Cluster cluster, PrintWriter out, CountDownLatch stopped)
        throws Exception {
        try (Library library = Library.open(settings, libraryOptions.data(), SystemClocks.utc())) {
            library.notes().forEach(note -> out.println("note: " + note));
            List<DiskModels.Choice> models;
            try (MeasuringListener measuring = new MeasuringListener(spec.commandLine().getErr(), false,
                     () -> stopped.getCount() == 0)) {
                // Emulation keeps the paper's disk unless a model is asked for by name, measured included.
                models = DiskModels.real(DiskIo.best(), SystemClocks.nanoClock(), SystemClocks.epochClock())
                    .choose(diskProfile != null ? diskProfile
                        : settings.diskProfile(), diskProfile != null ? "--disk-profile" : "configured",
                    library.store().disks(), emulate && diskProfile == null, measuring);
            } catch (CancellationException e) {
                models = List.of();
            }
            if (stopped.getCount() == 0) {
                // Ctrl-C while profiling: the profiler's own hook may have deleted its test file first.
                out.println("stopped while profiling the disks: a profile cut short is not stored");
                return;
            }
            models.forEach(model -> out.println(model.account()));
            MemoryBudget memory = settings.memoryBudget();
            out.println(memory.describe());
            memory.warnings().forEach(warning -> out.println("WARNING: " + warning));
            out.println("admission " + settings.admissionPolicy() + ": buffers " + settings.describeBuffersCeiling()
                + ", network " + BitRates.format(settings.networkBitsPerSecond()) + " (network.capacity)");
            Map<String, DiskProfile> byDisk = new HashMap<>();
            models.forEach(model -> byDisk.put(model.disk(), model.profile()));
            List<MediaObject> demo = DemoLibrary.installIfEmpty(library.store().catalog(), library.ingest());
            if (!demo.isEmpty()) {
                // Every node makes the same demo library; each keeps the objects it owns.
                for (MediaObject object : demo) {
                    if (!cluster.holds(object.name())) {
                        library.directory().delete(object.name());
                    }
                }
                out.println("the library was empty: installed the demo library (" + demo.size() + " objects"
                    + (cluster.enabled() ? ", of which this node keeps those it owns" : "") + ")");
            }
            List<String> player = PlayerFiles.install(library);
            if (!player.isEmpty()) {
                out.println("installed the web player under " + PlayerFiles.FOLDER + " (" + player.size() + " files)");
            }
            ConnectionSettings connections = settings.connectionSettings();
            long descriptors = ConnectionSettings.maxDescriptors();
            out.println(connections.describe(descriptors));
            connections.warnings(descriptors).forEach(warning -> out.println("WARNING: " + warning));
            AdminSettings admin = settings.adminSettings();
            AdminTokens tokens = AdminTokens.load(admin, library.dataFolder(), System.getenv());
            RondoContext context = new RondoContext()
                .config(settings)
                .library(library)
                .models(byDisk::get)
                .emulate(emulate)
                .httpAddress(new InetSocketAddress(address, port))
                .streamAddress(new InetSocketAddress(address, streamPort))
                .adminAddress(new InetSocketAddress(admin.address(), adminPort))
                .agentPort(agentPort)
                .tokens(tokens)
                .cluster(cluster)
                .nanoClock(SystemClocks.nanoClock())
                .epochClock(SystemClocks.epochClock())
                .clock(SystemClocks.utc());
            try (RondoServer server = RondoServer.start(context)) {
                InetSocketAddress http = server.http().address();
                InetSocketAddress streams = server.streams().address();
                String adminUrl = server.admin().url();
                out.printf("Rondo serving %d objects from %d disk%s at http://%s:%d/ and rondo://%s:%d/ "
                        + "(%s, %s disks)%n",
                    library.store().catalog().size()
                        - library.store().catalog().withPrefix(PlayerFiles.FOLDER).size(),
                    library.store().disks().size(), library.store().disks().size() == 1 ? "" : "s",
                    http.getHostString(), http.getPort(), streams.getHostString(), streams.getPort(),
                    HttpServer.epoll() ? "epoll" : "nio", emulate ? "emulated" : "real");
                cluster.self().ifPresent(self -> out.printf("node %s of a cluster of %d (%s), %d replicas of each "
                    + "object%n", self.name(), cluster.nodes().size(), String.join(", ", cluster.names()),
                    cluster.replicas()));
                out.printf("admin API at %s/api/v1/ (dashboard %s/admin/, metrics %s/metrics); %s%n",
                    adminUrl, adminUrl, adminUrl, tokens.adminFile() == null
                        ? "the admin token is $" + AdminTokens.ADMIN_ENV
                        : (tokens.adminWritten() ? "wrote a new admin token to " : "the admin token is in ")
                            + tokens.adminFile());
                server.agentAddress().ifPresent(agent -> out.printf("agent for HAProxy's agent-check at %s:%d%n",
                    agent.getHostString(), agent.getPort()));
                out.flush();
                AdminUrlFile.write(library.dataFolder(), adminUrl);
                try {
                    stopped.await();
                } finally {
                    AdminUrlFile.delete(library.dataFolder());
                }
                server.drain();
            }
        }
    }

    /**
     * The cluster rondo.yaml describes, as node {@code --node} sees it, whose entry gives the ports
     * and the address not given on the command line; none without {@code --node}.
     */
    private Cluster cluster(RondoConfig settings) {
        if (node == null) {
            if (settings.clusterSettings().enabled()) {
                spec.commandLine().getErr().println("note: rondo.yaml describes a cluster; without --node NAME this "
                    + "server serves alone");
            }
            return Cluster.single();
        }
        Cluster cluster = Cluster.of(settings.clusterSettings(), node);
        ClusterSettings.Node self = cluster.self().orElseThrow();
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        port = given.hasMatchedOption("--port") ? port : self.ports().http();
        streamPort = given.hasMatchedOption("--stream-port") ? streamPort : self.ports().stream();
        adminPort = given.hasMatchedOption("--admin-port") ? adminPort : self.ports().admin();
        address = given.hasMatchedOption("--address") ? address : self.host();
        agentPort = given.hasMatchedOption("--agent-port") ? agentPort : self.ports().agent();
        return cluster;
    }

    /** The shutdown hook waits (a bounded time) for the server to close before the JVM halts. */
    private static void awaitQuietly(CountDownLatch closed) {
        try {
            closed.await(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
