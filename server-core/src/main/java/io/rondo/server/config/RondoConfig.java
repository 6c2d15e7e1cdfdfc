package io.rondo.server.config;

import io.rondo.content.ingest.PlacementPolicy;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionPolicy;
import io.rondo.scheduler.policy.SchedulingPolicy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Rondo's settings, as {@code config/rondo.yaml} writes them: one record a section, each naming
 * its knobs beside their defaults (as Aeron's {@code Configuration} does) and checking them once,
 * on loading; and what follows from several sections together: the admission settings, the memory
 * budget, the D-response bound. A file need only say what differs; {@link ConfigFile} reads it and
 * refuses a key Rondo does not know by name.
 */
public final class RondoConfig {

    /** The system property naming the folder that holds {@value #FILE_NAME} (the {@code rondo} script sets it). */
    public static final String CONFIG_DIR_PROPERTY = "rondo.config.dir";
    /** The configuration file's name. */
    public static final String FILE_NAME = "rondo.yaml";
    /** The value that leaves a knob to Rondo, sized from the machine or from other knobs. */
    public static final String AUTO = "auto";

    private final Path source;
    private final StorageSettings storage;
    private final SchedulerSettings scheduler;
    private final DiskSettings diskSettings;
    private final AdmissionSettings admission;
    private final BufferSettings buffers;
    private final NetworkSettings network;
    private final HttpSettings httpSettings;
    private final StreamSettings streamSettings;
    private final AdminSettings adminSettings;
    private final ConnectionSettings connectionSettings;
    private final DiscreteSettings discrete;
    private final LiveSettings live;
    private final ClusterSettings cluster;
    private final long responseBoundMs;

    private RondoConfig(Path source, ConfigFile.Document document) {
        this.source = source;
        try {
            this.storage = StorageSettings.read(document.storage());
            this.admission = AdmissionSettings.read(document.admission());
            this.scheduler = SchedulerSettings.read(document.scheduler());
            this.buffers = BufferSettings.read(document.buffers());
            this.network = NetworkSettings.read(document.network());
            this.diskSettings = DiskSettings.read(document.scheduler());
            this.httpSettings = HttpSettings.read(document.http(), buffers.ceilingBytes());
            this.streamSettings = StreamSettings.read(document.streams()).withClientBuffers(buffers.clientBuffers());
            this.adminSettings = AdminSettings.read(document.admin());
            this.connectionSettings = ConnectionSettings.read(document.http(), document.streams(), document.admin());
            this.discrete = DiscreteSettings.read(document.discrete());
            this.live = LiveSettings.read(document.live());
            this.cluster = ClusterSettings.read(document.cluster());
            this.responseBoundMs = discrete.responseBoundMs(
                autoResponseBoundMs(scheduler.roundMs(), admission.discreteReserve()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((source == null ? "defaults" : source.toString()) + ": "
                + e.getMessage(), e);
        }
    }

    /**
     * The D-response bound {@code discrete.responseBound: auto} stands for: a D-request that finds
     * its round's reserve taken waits for the next round, in whose sweep the streams' share of the
     * round, {@code T (1 - reserve)}, may come before it; so {@code T + T (1 - reserve)}.
     */
    public static long autoResponseBoundMs(long roundMs, double discreteReserve) {
        return Math.max(1, Math.round(roundMs * (2 - discreteReserve)));
    }

    /** Every knob at its default. */
    public static RondoConfig defaults() {
        return new RondoConfig(null, ConfigFile.Document.EMPTY);
    }

    /**
     * Where the configuration file is looked for: {@value #FILE_NAME} in the folder
     * {@code -Drondo.config.dir} names, else in {@code config/} under the working directory.
     */
    public static Path defaultFile() {
        return Path.of(System.getProperty(CONFIG_DIR_PROPERTY, "config"), FILE_NAME);
    }

    /** The configuration in {@code file}, or the defaults if there is no such file. */
    public static RondoConfig loadOrDefaults(Path file) {
        return Files.exists(file) ? load(file) : defaults();
    }

    /**
     * The configuration in {@code file}: what it says, defaults for the rest.
     *
     * @throws IllegalArgumentException if the file is missing or unreadable, is not YAML, has a key
     *                                  Rondo does not know, or a value that does not fit
     */
    public static RondoConfig load(Path file) {
        return new RondoConfig(file, ConfigFile.read(file));
    }

    /** The file this came from, or empty for the defaults. */
    public Optional<Path> source() {
        return Optional.ofNullable(source);
    }

    /** The {@code storage:} section: the storage roots, the disk model and the placement of new objects. */
    public StorageSettings storageSettings() {
        return storage;
    }

    /** The {@code scheduler:} section's policy and round; its disk limits are {@link #diskSettings()}. */
    public SchedulerSettings schedulerSettings() {
        return scheduler;
    }

    /** {@code scheduler.maxRead}, {@code scheduler.queue}, {@code scheduler.generatorQueue}. */
    public DiskSettings diskSettings() {
        return diskSettings;
    }

    /** The {@code admission:} section: the admission policy and the D-requests' reserve. */
    public AdmissionSettings admissionSettings() {
        return admission;
    }

    /** The {@code buffers:} section: the read buffers' ceiling. */
    public BufferSettings bufferSettings() {
        return buffers;
    }

    /** The {@code network:} section: the streams' outgoing capacity. */
    public NetworkSettings networkSettings() {
        return network;
    }

    /** The {@code http:} section: the HTTP port's limits and buffers. */
    public HttpSettings httpSettings() {
        return httpSettings;
    }

    /** The {@code streams:} section: the stream protocol's limits, deadlines and buffers. */
    public StreamSettings streamSettings() {
        return streamSettings;
    }

    /** The {@code admin:} section: the admin port. */
    public AdminSettings adminSettings() {
        return adminSettings;
    }

    /** Each port's connection limits: {@code maxConnections} and {@code maxConnectionsPerAddress} of each section. */
    public ConnectionSettings connectionSettings() {
        return connectionSettings;
    }

    /** The {@code discrete:} section: the D-response bound as written. */
    public DiscreteSettings discreteSettings() {
        return discrete;
    }

    /** The {@code live:} section: recordings' memory and reservations. */
    public LiveSettings liveSettings() {
        return live;
    }

    /** The {@code cluster:} section: the nodes and how many hold each object. */
    public ClusterSettings clusterSettings() {
        return cluster;
    }

    /** The admission settings, with this configuration's round, buffer ceiling and network capacity. */
    public AdmissionConfig admissionConfig() {
        return AdmissionConfig.defaults().withPolicy(admission.policy())
            .withDiscreteReserve(admission.discreteReserve()).withRound(Duration.ofMillis(scheduler.roundMs()))
            .withBufferCeilingBytes(buffers.ceilingBytes()).withNetworkBitsPerSecond(network.bitsPerSecond());
    }

    /** This JVM's memory and how the read buffers and the hot-object cache share its direct memory. */
    public MemoryBudget memoryBudget() {
        return MemoryBudget.of(buffers.ceilingBytes(), httpSettings.hotObjectsTotalBytes());
    }

    /** The bound D-requests' response times are measured against, in milliseconds. */
    public long responseBoundMs() {
        return responseBoundMs;
    }

    /** {@code storage.roots}, as paths relative to the working directory unless absolute. */
    public List<Path> storageRoots() {
        return storage.rootPaths();
    }

    /** Whether {@code storage.roots} is the default, {@code [data]}. */
    public boolean defaultStorageRoots() {
        return storage.defaultRoots();
    }

    /** {@code storage.placement}: where new objects go. */
    public PlacementPolicy placement() {
        return storage.placement();
    }

    /** {@code storage.diskProfile}, as written: {@code measured}, a built-in profile's name or a file. */
    public String diskProfile() {
        return storage.diskProfile();
    }

    /** Whether {@code storage.diskProfile} is {@code measured}: each disk's own profile. */
    public boolean measuredDiskProfile() {
        return storage.measuredDiskProfile();
    }

    /** {@code scheduler.policy}, as written. */
    public String policy() {
        return scheduler.policy();
    }

    /** {@code scheduler.policy}, parsed. */
    public SchedulingPolicy schedulingPolicy() {
        return scheduler.schedulingPolicy();
    }

    /** {@code scheduler.roundMs}. */
    public long roundMs() {
        return scheduler.roundMs();
    }

    /** {@code admission.policy}: Adm1, Adm2 (the default) or Adm3 of papers/000 Section 2.3. */
    public AdmissionPolicy admissionPolicy() {
        return admission.policy();
    }

    /** {@code buffers.ceiling} in bytes: for {@code auto}, half the JVM's direct memory. */
    public long buffersCeilingBytes() {
        return buffers.ceilingBytes();
    }

    /** The buffer ceiling for people, with a warning where it passes the JVM's direct memory. */
    public String describeBuffersCeiling() {
        return buffers.describe();
    }

    /** {@code network.capacity} in bits a second, or {@link AdmissionConfig#UNLIMITED_NETWORK}. */
    public long networkBitsPerSecond() {
        return network.bitsPerSecond();
    }
}
