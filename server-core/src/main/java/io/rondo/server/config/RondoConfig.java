package io.rondo.server.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rondo.content.ingest.PlacementPolicy;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionPolicy;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.policy.SchedulingPolicy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Rondo's settings, as {@code config/rondo.yaml} writes them. Every knob is named here beside its
 * default (as Aeron's {@code Configuration} does), a file need only say what differs, and the whole
 * is checked once, on loading: a key Rondo does not know is refused by name rather than quietly
 * ignored, since a misspelt knob that does nothing is worse than an error.
 */
public final class RondoConfig {

    /** The system property naming the folder that holds {@value #FILE_NAME} (the {@code rondo} script sets it). */
    public static final String CONFIG_DIR_PROPERTY = "rondo.config.dir";
    /** The configuration file's name. */
    public static final String FILE_NAME = "rondo.yaml";

    /** {@code storage.roots}: the folders Rondo stores and reads files in, relative to the working directory. */
    public static final List<String> DEFAULT_STORAGE_ROOTS = List.of("data");
    /**
     * {@code storage.diskProfile}'s word for the profile measured on each disk's own device, at the
     * first start on it, and stored in its storage root's {@code rondo/} folder.
     */
    public static final String MEASURED_DISK_PROFILE = "measured";
    /** {@code storage.diskProfile}: the disk model, {@code measured}, a built-in profile's name or a profile file. */
    public static final String DEFAULT_DISK_PROFILE = MEASURED_DISK_PROFILE;
    /** {@code scheduler.policy}: the scheduling policy, a preset or a point of the framework. */
    public static final String DEFAULT_POLICY = "mixed-incremental-scan";
    /** {@code scheduler.roundMs}: the length of a round in milliseconds. */
    public static final long DEFAULT_ROUND_MS = 1000;
    /** {@code buffers.ceiling}'s word for a share of the JVM's direct memory, {@link #AUTO_CEILING_SHARE}. */
    public static final String AUTO_BUFFERS_CEILING = "auto";
    /** The share of the JVM's direct memory an {@code auto} buffer ceiling takes; Netty and the rest keep the other. */
    public static final double AUTO_CEILING_SHARE = 0.5;
    /** {@code buffers.ceiling}: the most memory all buffers together may take. */
    public static final String DEFAULT_BUFFERS_CEILING = AUTO_BUFFERS_CEILING;
    /** {@code network.capacity}: the outgoing capacity the streams may take, in bits a second. */
    public static final String DEFAULT_NETWORK_CAPACITY = BitRates.UNLIMITED;
    /** The value of {@code discrete.responseBound} that sizes it from the round and the reserve. */
    public static final String AUTO = "auto";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final Path source;
    private final List<String> storageRoots;
    private final String diskProfile;
    private final PlacementPolicy placement;
    private final String policy;
    private final long roundMs;
    private final String buffersCeiling;
    private final long buffersCeilingBytes;
    private final AdmissionPolicy admissionPolicy;
    private final double discreteReserve;
    private final String networkCapacity;
    private final long networkBitsPerSecond;
    private final DiskSettings diskSettings;
    private final HttpSettings httpSettings;
    private final StreamSettings streamSettings;
    private final AdminSettings adminSettings;
    private final ConnectionSettings connectionSettings;
    private final String responseBound;
    private final long responseBoundMs;

    private RondoConfig(Path source, Document document) {
        String where = source == null ? "defaults" : source.toString();
        Storage storage = document.storage() == null ? new Storage(null, null, null) : document.storage();
        Scheduler scheduler = document.scheduler() == null ? new Scheduler(null, null, null, null, null)
            : document.scheduler();
        Buffers buffers = document.buffers() == null ? new Buffers(null) : document.buffers();
        Admission admission = document.admission() == null ? new Admission(null, null) : document.admission();
        Network network = document.network() == null ? new Network(null) : document.network();
        List<String> roots = storage.roots() == null ? DEFAULT_STORAGE_ROOTS : storage.roots();
        require(!roots.isEmpty(), where, "storage.roots needs at least one folder");
        for (String root : roots) {
            require(root != null && !root.isBlank(), where, "storage.roots has an empty entry");
        }
        this.source = source;
        this.storageRoots = List.copyOf(roots);
        this.diskProfile = storage.diskProfile() == null ? DEFAULT_DISK_PROFILE : storage.diskProfile();
        this.placement = placement(storage.placement(), where);
        try {
            this.admissionPolicy = admission.policy() == null ? AdmissionPolicy.ADM2
                : AdmissionPolicy.parse(admission.policy());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": admission.policy: " + e.getMessage(), e);
        }
        this.discreteReserve = admission.discreteReserve() == null ? AdmissionConfig.DEFAULT_DISCRETE_RESERVE
            : admission.discreteReserve();
        require(discreteReserve >= 0 && discreteReserve < 1, where,
            "admission.discreteReserve must be at least 0 and below 1, was " + discreteReserve);
        this.policy = scheduler.policy() == null ? DEFAULT_POLICY : scheduler.policy();
        this.roundMs = scheduler.roundMs() == null ? DEFAULT_ROUND_MS : scheduler.roundMs();
        this.buffersCeiling = buffers.ceiling() == null ? DEFAULT_BUFFERS_CEILING : buffers.ceiling();
        require(roundMs > 0, where, "scheduler.roundMs must be positive, was " + roundMs);
        try {
            SchedulingPolicy.parse(policy);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
        if (!measuredDiskProfile()) {
            try {
                DiskProfile.resolve(diskProfile);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": storage.diskProfile must be measured, a built-in "
                    + "profile or a profile file: " + e.getMessage(), e);
            }
        }
        try {
            this.buffersCeilingBytes = buffersCeilingAuto()
                ? Math.max(DiskIo.ALIGNMENT, (long) (DirectMemory.maxBytes() * AUTO_CEILING_SHARE))
                : ByteSizes.parse(buffersCeiling, "buffers.ceiling");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage() + " (or auto: half the JVM's direct "
                + "memory)", e);
        }
        this.networkCapacity = network.capacity() == null ? DEFAULT_NETWORK_CAPACITY : network.capacity();
        this.networkBitsPerSecond = BitRates.parse(networkCapacity, where + ": network.capacity");
        Http http = document.http() == null
            ? new Http(null, null, null, null, null, null, null, null, null, null, null, null) : document.http();
        Streams streams = document.streams() == null
            ? new Streams(null, null, null, null, null, null, null, null, null, null) : document.streams();
        try {
            this.diskSettings = new DiskSettings(
                size(scheduler.maxRead(), "scheduler.maxRead", DiskSettings.DEFAULT_MAX_READ),
                orDefault(scheduler.queue(), DiskSettings.DEFAULT_QUEUE),
                orDefault(scheduler.generatorQueue(), DiskSettings.DEFAULT_GENERATOR_QUEUE));
            this.httpSettings = new HttpSettings(
                size(http.maxRequestLine(), "http.maxRequestLine", HttpSettings.DEFAULT_MAX_REQUEST_LINE),
                size(http.maxHeaders(), "http.maxHeaders", HttpSettings.DEFAULT_MAX_HEADERS),
                size(http.maxBody(), "http.maxBody", HttpSettings.DEFAULT_MAX_BODY),
                orDefault(http.idleTimeoutSeconds(), HttpSettings.DEFAULT_IDLE_TIMEOUT_SECONDS),
                duration(http.headerTimeout(), "http.headerTimeout", HttpSettings.DEFAULT_HEADER_TIMEOUT_MS),
                orDefault(http.maxRanges(), HttpSettings.DEFAULT_MAX_RANGES),
                size(http.writeBufferLow(), "http.writeBufferLow", HttpSettings.DEFAULT_WRITE_BUFFER_LOW),
                size(http.writeBufferHigh(), "http.writeBufferHigh", HttpSettings.DEFAULT_WRITE_BUFFER_HIGH),
                size(http.hotObjectMax(), "http.hotObjectMax", HttpSettings.DEFAULT_HOT_OBJECT_MAX),
                http.hotObjectsTotal() == null || http.hotObjectsTotal().equals(AUTO)
                    ? MemoryBudget.autoHotObjects(DirectMemory.maxBytes(), buffersCeilingBytes)
                    : ByteSizes.parse(http.hotObjectsTotal(), "http.hotObjectsTotal"));
            this.streamSettings = new StreamSettings(
                size(streams.writeBufferLow(), "streams.writeBufferLow", StreamSettings.DEFAULT_WRITE_BUFFER_LOW),
                size(streams.writeBufferHigh(), "streams.writeBufferHigh", StreamSettings.DEFAULT_WRITE_BUFFER_HIGH),
                orDefault(streams.initSegmentsKept(), StreamSettings.DEFAULT_INIT_SEGMENTS_KEPT),
                duration(streams.clientTimeout(), "streams.clientTimeout", StreamSettings.DEFAULT_CLIENT_TIMEOUT_MS),
                duration(streams.openTimeout(), "streams.openTimeout", StreamSettings.DEFAULT_OPEN_TIMEOUT_MS),
                size(streams.maxClientFrame(), "streams.maxClientFrame", StreamSettings.DEFAULT_MAX_CLIENT_FRAME),
                orDefault(streams.maxUnansweredSeeks(), StreamSettings.DEFAULT_MAX_UNANSWERED_SEEKS),
                streams.allowedOrigins() == null ? StreamSettings.DEFAULT_ALLOWED_ORIGINS : streams.allowedOrigins());
            Admin admin = document.admin() == null ? new Admin(null, null, null, null, null, null, null, null)
                : document.admin();
            Tls tls = admin.tls() == null ? new Tls(null, null) : admin.tls();
            this.adminSettings = new AdminSettings(
                admin.address() == null ? AdminSettings.DEFAULT_ADDRESS : admin.address(),
                path(admin.tokenFile()), path(admin.readTokenFile()),
                admin.metricsPublic() != null && admin.metricsPublic(),
                admin.maxUpload() == null ? AdminSettings.DEFAULT_MAX_UPLOAD
                    : ByteSizes.parse(admin.maxUpload(), "admin.maxUpload"),
                path(tls.cert()), path(tls.key()));
            this.connectionSettings = ConnectionSettings.auto(ConnectionSettings.maxDescriptors(),
                connections(http.maxConnections(), "http.maxConnections"),
                connections(http.maxConnectionsPerAddress(), "http.maxConnectionsPerAddress"),
                connections(streams.maxConnections(), "streams.maxConnections"),
                connections(streams.maxConnectionsPerAddress(), "streams.maxConnectionsPerAddress"),
                connections(admin.maxConnections(), "admin.maxConnections"),
                connections(admin.maxConnectionsPerAddress(), "admin.maxConnectionsPerAddress"));
            Discrete discrete = document.discrete() == null ? new Discrete(null) : document.discrete();
            this.responseBound = discrete.responseBound() == null ? AUTO : discrete.responseBound();
            this.responseBoundMs = AUTO.equals(responseBound) ? autoResponseBoundMs(roundMs, discreteReserve)
                : Durations.parseMillis(responseBound, "discrete.responseBound");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static Path path(String text) {
        return text == null ? null : Path.of(text);
    }

    /**
     * The D-response bound {@code discrete.responseBound: auto} stands for: a D-request that finds
     * its round's reserve taken waits for the next round, in whose sweep the streams' share of the
     * round, {@code T (1 - reserve)}, may come before it; so {@code T + T (1 - reserve)}.
     */
    public static long autoResponseBoundMs(long roundMs, double discreteReserve) {
        return Math.max(1, Math.round(roundMs * (2 - discreteReserve)));
    }

    /** A size key as written ({@code 64K}), in bytes, at most 2 GiB - 1; the default if not written. */
    private static int size(String text, String key, int defaultBytes) {
        if (text == null) {
            return defaultBytes;
        }
        long bytes = ByteSizes.parse(text, key);
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " must be below 2 GiB, was '" + text + "'");
        }
        return (int) bytes;
    }

    /** A duration key as written ({@code 10s}, {@code 1500ms}), in milliseconds; the default if not written. */
    private static long duration(String text, String key, long defaultMs) {
        if (text == null) {
            return defaultMs;
        }
        try {
            return Durations.parseMillis(text, key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be a duration from 1ms to 1 hour, such as 10s or "
                + "1500ms, was '" + text + "'", e);
        }
    }

    /** A connection limit as written: a whole number, or null for {@code auto} (or not written). */
    private static Integer connections(String text, String key) {
        if (text == null || text.equals(AUTO)) {
            return null;
        }
        try {
            int value = Integer.parseInt(text.strip());
            Settings.positive(value, key);
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a positive whole number or auto, was '" + text + "'", e);
        }
    }

    private static int orDefault(Integer value, int defaultValue) {
        return value == null ? defaultValue : value;
    }

    /** Every knob at its default. */
    public static RondoConfig defaults() {
        return new RondoConfig(null, new Document(null, null, null, null, null, null, null, null, null));
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
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("config file " + file + " does not exist");
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage(), e);
        }
        Document document;
        try (JsonParser parser = YAML.createParser(text)) {
            // A file of comments alone is no document at all: every knob at its default.
            document = parser.nextToken() == null ? null : YAML.readValue(parser, Document.class);
        } catch (UnrecognizedPropertyException e) {
            String key = key(e);
            String section = key.contains(".") ? key.substring(0, key.lastIndexOf('.')) : "the top level";
            throw new IllegalArgumentException(file + ": unknown key '" + key + "'" + lineOf(e.getPropertyName(), text)
                + "; " + section + " knows " + e.getKnownPropertyIds().stream().map(Object::toString).sorted()
                .collect(Collectors.joining(", ")), e);
        } catch (MismatchedInputException e) {
            throw new IllegalArgumentException(file + ": '" + key(e) + "'" + line(e.getLocation()) + " must be "
                + expected(e.getTargetType()), e);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not valid YAML" + line(e.getLocation()) + ": "
                + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage(), e);
        }
        return new RondoConfig(file, document == null
            ? new Document(null, null, null, null, null, null, null, null, null) : document);
    }

    /** The file this came from, or empty for the defaults. */
    public Optional<Path> source() {
        return Optional.ofNullable(source);
    }

    /** {@code storage.roots}, as paths relative to the working directory unless absolute. */
    public List<Path> storageRoots() {
        return storageRoots.stream().map(Path::of).toList();
    }

    /** Whether {@code storage.roots} is the default, {@code [data]}. */
    public boolean defaultStorageRoots() {
        return storageRoots.equals(DEFAULT_STORAGE_ROOTS);
    }

    /** {@code admission.policy}: Adm1, Adm2 (the default) or Adm3 of papers/000 Section 2.3. */
    public AdmissionPolicy admissionPolicy() {
        return admissionPolicy;
    }

    /** {@code admission.discreteReserve}: the share of each round kept for D-requests. */
    public double discreteReserve() {
        return discreteReserve;
    }

    /** The admission settings, with this configuration's round, buffer ceiling and network capacity. */
    public AdmissionConfig admissionConfig() {
        return AdmissionConfig.defaults().withPolicy(admissionPolicy).withDiscreteReserve(discreteReserve)
            .withRound(java.time.Duration.ofMillis(roundMs)).withBufferCeilingBytes(buffersCeilingBytes)
            .withNetworkBitsPerSecond(networkBitsPerSecond);
    }

    /** {@code storage.placement}: where new objects go. */
    public PlacementPolicy placement() {
        return placement;
    }

    private static PlacementPolicy placement(String value, String where) {
        if (value == null || value.equals("striped")) {
            return PlacementPolicy.STRIPED;
        }
        if (value.equals("most-free")) {
            return PlacementPolicy.MOST_FREE;
        }
        throw new IllegalArgumentException(where + ": storage.placement must be striped or most-free, was '"
            + value + "'");
    }

    /** {@code storage.diskProfile}, as written: {@code measured}, a built-in profile's name or a file. */
    public String diskProfile() {
        return diskProfile;
    }

    /** Whether {@code storage.diskProfile} is {@code measured}: each disk's own profile. */
    public boolean measuredDiskProfile() {
        return MEASURED_DISK_PROFILE.equals(diskProfile);
    }

    /** {@code scheduler.policy}, as written. */
    public String policy() {
        return policy;
    }

    /** {@code scheduler.policy}, parsed. */
    public SchedulingPolicy schedulingPolicy() {
        return SchedulingPolicy.parse(policy);
    }

    /** {@code scheduler.roundMs}. */
    public long roundMs() {
        return roundMs;
    }

    /** {@code buffers.ceiling}, as written ({@code auto}, {@code 256M}). */
    public String buffersCeiling() {
        return buffersCeiling;
    }

    /** Whether {@code buffers.ceiling} is {@code auto}: a share of the JVM's direct memory. */
    public boolean buffersCeilingAuto() {
        return AUTO_BUFFERS_CEILING.equals(buffersCeiling);
    }

    /** {@code buffers.ceiling} in bytes: for {@code auto}, half the JVM's direct memory. */
    public long buffersCeilingBytes() {
        return buffersCeilingBytes;
    }

    /**
     * The buffer ceiling for people: {@code 3 GiB (auto: half the JVM's 6 GiB of direct memory, ...)},
     * or {@code 256 MiB (buffers.ceiling)}, with a warning where a set ceiling passes the JVM's
     * direct memory, which would fail reads before admission refused a stream.
     */
    public String describeBuffersCeiling() {
        long directBytes = DirectMemory.maxBytes();
        String direct = ByteSizes.format(directBytes) + " of direct memory, "
            + (DirectMemory.configured() ? "set by -XX:MaxDirectMemorySize" : "by default its maximum heap");
        if (buffersCeilingAuto()) {
            return ByteSizes.format(buffersCeilingBytes) + " (auto: half the JVM's " + direct + ")";
        }
        return ByteSizes.format(buffersCeilingBytes) + " (buffers.ceiling)" + (buffersCeilingBytes <= directBytes ? ""
            : "; WARNING: more than the JVM's " + direct + ": raise it with RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize="
            + "SIZE, or reads may fail for memory before admission refuses a stream");
    }

    /** This JVM's memory and how the read buffers and the hot-object cache share its direct memory. */
    public MemoryBudget memoryBudget() {
        return MemoryBudget.of(buffersCeilingBytes, httpSettings.hotObjectsTotalBytes());
    }

    /** {@code network.capacity}, as written ({@code unlimited}, {@code 1G}). */
    public String networkCapacity() {
        return networkCapacity;
    }

    /** {@code network.capacity} in bits a second, or {@link AdmissionConfig#UNLIMITED_NETWORK}. */
    public long networkBitsPerSecond() {
        return networkBitsPerSecond;
    }

    /** {@code scheduler.maxRead}, {@code scheduler.queue}, {@code scheduler.generatorQueue}. */
    public DiskSettings diskSettings() {
        return diskSettings;
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

    /** {@code discrete.responseBound} as written: {@code auto} or a duration ({@code 1500ms}, {@code 2s}). */
    public String responseBound() {
        return responseBound;
    }

    /** The bound D-requests' response times are measured against, in milliseconds. */
    public long responseBoundMs() {
        return responseBoundMs;
    }

    /** The dotted key an exception is about: {@code storage.roots}. */
    private static String key(JsonMappingException e) {
        return e.getPath().stream()
            .map(reference -> reference.getFieldName() != null ? reference.getFieldName()
                : "[" + reference.getIndex() + "]")
            .collect(Collectors.joining(".")).replace(".[", "[");
    }

    /**
     * Where an unknown key is written: the parser has moved past it by the time it is refused, so
     * its line is found in the text, the first line that sets it.
     */
    private static String lineOf(String key, String text) {
        Pattern setting = Pattern.compile("^\\s*(-\\s*)?[\"']?" + Pattern.quote(key) + "[\"']?\\s*:");
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (setting.matcher(lines.get(i)).find()) {
                return " (line " + (i + 1) + ")";
            }
        }
        return "";
    }

    private static String line(JsonLocation location) {
        return location == null || location.getLineNr() < 1 ? "" : " (line " + location.getLineNr() + ")";
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "something else";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a whole number";
        }
        if (type == String.class) {
            return "a single value";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "a section of keys";
    }

    private static void require(boolean condition, String where, String message) {
        if (!condition) {
            throw new IllegalArgumentException(where + ": " + message);
        }
    }

    /** The file's shape; any section or key left out is null and takes its default. */
    record Document(Storage storage, Scheduler scheduler, Buffers buffers, Admission admission, Network network,
                    Http http, Streams streams, Admin admin, Discrete discrete) {
    }

    record Admin(String address, String tokenFile, String readTokenFile, Boolean metricsPublic, String maxUpload,
                 Tls tls, String maxConnections, String maxConnectionsPerAddress) {
    }

    record Tls(String cert, String key) {
    }

    record Discrete(String responseBound) {
    }

    record Storage(List<String> roots, String diskProfile, String placement) {
    }

    record Scheduler(String policy, Long roundMs, String maxRead, Integer queue, Integer generatorQueue) {
    }

    record Http(String maxRequestLine, String maxHeaders, String maxBody, Integer idleTimeoutSeconds,
                String headerTimeout, Integer maxRanges, String writeBufferLow, String writeBufferHigh,
                String hotObjectMax, String hotObjectsTotal, String maxConnections,
                String maxConnectionsPerAddress) {
    }

    record Streams(String writeBufferLow, String writeBufferHigh, Integer initSegmentsKept, String clientTimeout,
                   String openTimeout, String maxClientFrame, Integer maxUnansweredSeeks, List<String> allowedOrigins,
                   String maxConnections, String maxConnectionsPerAddress) {
    }

    record Admission(String policy, Double discreteReserve) {
    }

    record Buffers(String ceiling) {
    }

    record Network(String capacity) {
    }
}
