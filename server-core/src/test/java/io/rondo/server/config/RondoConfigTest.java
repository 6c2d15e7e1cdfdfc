package io.rondo.server.config;

import io.rondo.scheduler.admission.AdmissionConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** config/rondo.yaml: defaults for whatever is left out, overrides taken, unknown keys refused by name. */
class RondoConfigTest {

    @TempDir
    Path dir;

    private Path yaml(String text) throws IOException {
        return Files.writeString(dir.resolve("rondo.yaml"), text);
    }

    private static void assertDefaults(RondoConfig config) {
        assertEquals(List.of(Path.of("data")), config.storageRoots());
        assertTrue(config.defaultStorageRoots());
        assertEquals("measured", config.diskProfile());
        assertTrue(config.measuredDiskProfile());
        assertEquals("mixed-incremental-scan", config.policy());
        assertEquals("mixed-incremental-scan", config.schedulingPolicy().name());
        assertEquals(1000, config.roundMs());
        assertEquals("auto", config.bufferSettings().ceiling());
        assertTrue(config.bufferSettings().auto());
        assertEquals(DirectMemory.maxBytes() / 2, config.buffersCeilingBytes(), 1);
        assertEquals("unlimited", config.networkSettings().capacity());
        assertEquals(AdmissionConfig.UNLIMITED_NETWORK, config.admissionConfig().networkBitsPerSecond());
        assertEquals(DiskSettings.defaults(), config.diskSettings());
        assertEquals(HttpSettings.defaults(), config.httpSettings());
        assertEquals(StreamSettings.defaults(), config.streamSettings());
        assertEquals(AdminSettings.defaults(), config.adminSettings());
        assertEquals(ConnectionSettings.defaults(), config.connectionSettings());
        assertEquals("auto", config.discreteSettings().responseBound());
        assertEquals(1800, config.responseBoundMs(), "a round plus the streams' 80 % of the next");
    }

    @Test
    void connectionLimitsAreSharesOfTheDescriptorsUnlessSet() throws IOException {
        ConnectionSettings auto = ConnectionSettings.auto(20_000, null, null, null, null, null, null);
        assertEquals(new ConnectionSettings(10_000, 1024, 6000, 6000, 256, 64), auto, "ulimit -n 20000");
        assertEquals(new ConnectionSettings(512, 512, 307, 307, 51, 51),
            ConnectionSettings.auto(1024, null, null, null, null, null, null), "ulimit -n 1024: a fifth left");
        assertTrue(auto.warnings(20_000).isEmpty());

        RondoConfig config = RondoConfig.load(yaml("""
            http:
              maxConnections: 100
              maxConnectionsPerAddress: 10
            streams:
              maxConnectionsPerAddress: 5
            admin:
              maxConnections: auto
            """));
        ConnectionSettings set = config.connectionSettings();
        assertEquals(100, set.http());
        assertEquals(10, set.httpPerAddress());
        assertEquals(5, set.streamsPerAddress());
        assertEquals(ConnectionSettings.defaults().streams(), set.streams());
        assertEquals(ConnectionSettings.defaults().admin(), set.admin());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> RondoConfig.load(yaml("http:\n  maxConnections: lots\n")));
        assertTrue(refused.getMessage().contains("http.maxConnections"), refused.getMessage());
        assertEquals(1, new ConnectionSettings(15_000, 10, 6000, 6000, 256, 64).warnings(20_000).size(),
            "the ports together may take every descriptor");
    }

    @Test
    void theAdminPortAndTheResponseBoundAreConfigured() throws IOException {
        RondoConfig config = RondoConfig.load(yaml("""
            admission:
              discreteReserve: 0.5
            admin:
              address: 0.0.0.0
              tokenFile: /etc/rondo/admin.token
              publishTokenFile: /etc/rondo/publish.token
              metricsPublic: true
              maxUpload: 2G
              tls:
                cert: a.crt
                key: a.key
            """));

        AdminSettings admin = config.adminSettings();
        assertEquals("0.0.0.0", admin.address());
        assertEquals(Path.of("/etc/rondo/admin.token"), admin.tokenFile());
        assertEquals(null, admin.readTokenFile());
        assertEquals(Path.of("/etc/rondo/publish.token"), admin.publishTokenFile());
        assertTrue(admin.metricsPublic());
        assertEquals(2L << 30, admin.maxUploadBytes());
        assertTrue(admin.tls());
        assertEquals(1500, config.responseBoundMs(), "auto follows the reserve");
        assertEquals(250, RondoConfig.load(yaml("discrete:\n  responseBound: 250ms\n")).responseBoundMs());
        assertEquals(2500, RondoConfig.load(yaml("discrete:\n  responseBound: 2.5s\n")).responseBoundMs());
        assertRefused("discrete:\n  responseBound: soon\n", "discrete.responseBound must be auto or a duration");
        assertRefused("admin:\n  tls:\n    cert: a.crt\n", "admin.tls needs both cert and key");
        assertRefused("admin:\n  maxUpload: 0\n", "admin.maxUpload must be a positive size");
    }

    @Test
    void theServersLimitsAreSizesInPowersOf1024OrCounts() throws IOException {
        RondoConfig config = RondoConfig.load(yaml("""
            scheduler:
              maxRead: 1M
              queue: 64
            http:
              maxHeaders: 32K
              idleTimeoutSeconds: 5
              headerTimeout: 1500ms
              hotObjectsTotal: 2G
            streams:
              writeBufferHigh: 4M
            """));

        assertEquals(new DiskSettings(1 << 20, 64, DiskSettings.DEFAULT_GENERATOR_QUEUE), config.diskSettings());
        assertEquals(32 * 1024, config.httpSettings().maxHeaderBytes());
        assertEquals(5, config.httpSettings().idleTimeoutSeconds());
        assertEquals(1500, config.httpSettings().headerTimeoutMs());
        assertEquals(2L << 30, config.httpSettings().hotObjectsTotalBytes());
        assertEquals(HttpSettings.DEFAULT_MAX_BODY, config.httpSettings().maxBodyBytes());
        assertEquals(4 << 20, config.streamSettings().writeBufferHighBytes());
        assertEquals(StreamSettings.DEFAULT_WRITE_BUFFER_LOW, config.streamSettings().writeBufferLowBytes());
    }

    @Test
    void badServerLimitsAreRefusedNamingTheKey() throws IOException {
        assertRefused("scheduler:\n  maxRead: 3G\n", "scheduler.maxRead must be below 2 GiB, was '3G'");
        assertRefused("scheduler:\n  queue: 0\n", "scheduler.queue must be positive, was 0");
        assertRefused("http:\n  maxBody: lots\n", "http.maxBody must be a positive size");
        assertRefused("http:\n  maxRanges: -1\n", "http.maxRanges must be positive, was -1");
        assertRefused("http:\n  headerTimeout: soon\n", "http.headerTimeout must be a duration from 1ms to 1 hour");
        assertRefused("http:\n  headerTimeout: 0s\n", "http.headerTimeout must be a duration from 1ms to 1 hour");
        assertRefused("streams:\n  writeBufferLow: 4M\n", "streams.writeBufferHigh (2097152 bytes) must be at "
            + "least streams.writeBufferLow (4194304 bytes)");
        assertRefused("http:\n  maxLine: 8K\n", "unknown key 'http.maxLine'");
    }

    @Test
    void noFileMeansTheDefaults() {
        RondoConfig config = RondoConfig.loadOrDefaults(dir.resolve("missing.yaml"));

        assertDefaults(config);
        assertEquals(Optional.empty(), config.source());
    }

    /** The shipped file writes every knob at its default: the two cannot drift apart. */
    @Test
    void theShippedFileSaysTheDefaults() {
        Path shipped = Path.of(System.getProperty(RondoConfig.CONFIG_DIR_PROPERTY, "../config"), "rondo.yaml");

        RondoConfig config = RondoConfig.load(shipped);

        assertDefaults(config);
        assertEquals(Optional.of(shipped), config.source());
    }

    @Test
    void anEmptyFileMeansTheDefaults() throws IOException {
        assertDefaults(RondoConfig.load(yaml("# nothing set\n")));
    }

    @Test
    void aFileOverridesWhatItSaysAndKeepsTheRest() throws IOException {
        RondoConfig config = RondoConfig.load(yaml("""
            storage:
              roots: [/srv/a, b]
            scheduler:
              roundMs: 500
            buffers:
              ceiling: 1G
            """));

        assertEquals(List.of(Path.of("/srv/a"), Path.of("b")), config.storageRoots());
        assertEquals(false, config.defaultStorageRoots());
        assertEquals(500, config.roundMs());
        assertEquals(1L << 30, config.buffersCeilingBytes());
        assertEquals("measured", config.diskProfile(), "left out: the default");
        assertEquals("mixed-incremental-scan", config.policy(), "left out: the default");
    }

    /** Link rates are decimal: 1G is 10^9 bit/s; the admission settings carry the capacity. */
    @Test
    void theNetworkCapacityIsABitRate() throws IOException {
        RondoConfig config = RondoConfig.load(yaml("network:\n  capacity: 1G\n"));

        assertEquals(1_000_000_000L, config.networkBitsPerSecond());
        assertEquals(1_000_000_000L, config.admissionConfig().networkBitsPerSecond());
        assertEquals(2_500_000_000L, RondoConfig.load(yaml("network:\n  capacity: 2.5G\n")).networkBitsPerSecond());
        assertEquals(100_000_000L, RondoConfig.load(yaml("network:\n  capacity: 100 Mbit/s\n"))
            .networkBitsPerSecond());
        assertEquals(800_000L, RondoConfig.load(yaml("network:\n  capacity: 800000\n")).networkBitsPerSecond());
        assertEquals("1 Gbit/s", BitRates.format(1_000_000_000L));
        assertEquals("2.5 Gbit/s", BitRates.format(2_500_000_000L));
        assertEquals("800 kbit/s", BitRates.format(800_000L));
        assertEquals("unlimited", BitRates.format(AdmissionConfig.UNLIMITED_NETWORK));
    }

    /** A ceiling set in the file is that; auto is half the JVM's direct memory, and says so. */
    @Test
    void theBufferCeilingIsSetOrHalfTheDirectMemory() throws IOException {
        RondoConfig set = RondoConfig.load(yaml("buffers:\n  ceiling: 64M\n"));
        assertEquals(64L << 20, set.buffersCeilingBytes());
        assertEquals("64 MiB (buffers.ceiling)", set.describeBuffersCeiling());

        RondoConfig auto = RondoConfig.defaults();
        assertEquals(auto.buffersCeilingBytes(), auto.admissionConfig().bufferCeilingBytes());
        assertTrue(auto.describeBuffersCeiling().contains("(auto: half the JVM's "
            + ByteSizes.format(DirectMemory.maxBytes()) + " of direct memory"), auto.describeBuffersCeiling());

        RondoConfig tooMuch = RondoConfig.load(yaml("buffers:\n  ceiling: 64T\n"));
        assertTrue(tooMuch.describeBuffersCeiling().contains("WARNING: more than the JVM's")
            && tooMuch.describeBuffersCeiling().contains("RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize="),
            tooMuch.describeBuffersCeiling());
    }

    /** The hot-object cache's budget: a size in the file is that; auto is an eighth of the direct memory. */
    @Test
    void theHotObjectBudgetIsSetOrAnEighthOfTheDirectMemory() throws IOException {
        assertEquals(Math.max(16L << 20, DirectMemory.maxBytes() / 8),
            RondoConfig.load(yaml("http:\n  hotObjectsTotal: auto\n")).httpSettings().hotObjectsTotalBytes());
        assertEquals(HttpSettings.DEFAULT_HOT_OBJECTS_TOTAL,
            RondoConfig.defaults().httpSettings().hotObjectsTotalBytes());
        assertEquals(8 << 20, RondoConfig.defaults().httpSettings().hotObjectMaxBytes(), "documents, not films");
        assertEquals(96L << 20, RondoConfig.load(yaml("http:\n  hotObjectsTotal: 96M\n")).httpSettings()
            .hotObjectsTotalBytes());
    }

    /** The paper's disk, or a profile file, when the file names one rather than measured. */
    @Test
    void aNamedDiskProfileIsNotMeasured() throws IOException {
        RondoConfig config = RondoConfig.load(yaml("storage:\n  diskProfile: nerjes-1999\n"));

        assertEquals("nerjes-1999", config.diskProfile());
        assertEquals(false, config.measuredDiskProfile());
    }

    @Test
    void anUnknownKeyIsRefusedNamingItAndTheFile() throws IOException {
        Path file = yaml("storage:\n  roots: [data]\n  rootz: [other]\n");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RondoConfig.load(file));

        assertTrue(e.getMessage().startsWith(file + ": unknown key 'storage.rootz' (line 3)"), e.getMessage());
        assertTrue(e.getMessage().contains("diskProfile, placement, roots"),
            "lists the keys storage knows: " + e.getMessage());
    }

    @Test
    void anUnknownSectionIsRefusedNamingIt() throws IOException {
        Path file = yaml("schedular:\n  roundMs: 500\n");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RondoConfig.load(file));

        assertTrue(e.getMessage().contains("unknown key 'schedular'"), e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void badValuesAreRefusedNamingTheKey() throws IOException {
        assertRefused("scheduler:\n  roundMs: soon\n", "'scheduler.roundMs' (line 2) must be a whole number");
        assertRefused("scheduler:\n  roundMs: 0\n", "scheduler.roundMs must be positive, was 0");
        assertRefused("scheduler:\n  policy: fastest\n", "unknown policy 'fastest'");
        assertRefused("buffers:\n  ceiling: lots\n", "buffers.ceiling must be a positive size");
        assertRefused("buffers:\n  ceiling: lots\n", "(or auto: half the JVM's direct memory)");
        assertRefused("network:\n  capacity: fast\n", "network.capacity must be a rate in bits a second like "
            + "100M, 1G or 2.5G (K, M, G: powers of 1000), or unlimited; was 'fast'");
        assertRefused("network:\n  capacity: 0\n", "network.capacity must be a rate");
        assertRefused("network:\n  capacity: -1G\n", "network.capacity must be a rate");
        assertRefused("storage:\n  roots: []\n", "storage.roots needs at least one folder");
        assertRefused("storage:\n  diskProfile: no-such-disk\n", "storage.diskProfile must be measured, a built-in "
            + "profile or a profile file: no built-in disk profile named 'no-such-disk'");
        assertRefused("storage: [a, b]\n", "'storage' (line 1) must be a section of keys");
        assertRefused("storage:\n  roots: [a\n", "is not valid YAML");
    }

    @Test
    void aMissingFileGivenByNameIsRefused() {
        Path missing = dir.resolve("missing.yaml");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RondoConfig.load(missing));

        assertEquals("config file " + missing + " does not exist", e.getMessage());
    }

    private void assertRefused(String text, String problem) throws IOException {
        Path file = yaml(text);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RondoConfig.load(file),
            text);
        assertTrue(e.getMessage().startsWith(file.toString()), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains(problem), "says '" + problem + "': " + e.getMessage());
    }

    @Test
    void placementIsStripedUnlessTheFileSaysMostFreeAndAnythingElseIsRefused() throws IOException {
        assertEquals(io.rondo.content.ingest.PlacementPolicy.STRIPED, RondoConfig.defaults().placement());
        assertEquals(io.rondo.content.ingest.PlacementPolicy.MOST_FREE,
            RondoConfig.load(yaml("storage:\n  placement: most-free\n")).placement());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> RondoConfig.load(yaml("storage:\n  placement: anywhere\n")));
        assertTrue(e.getMessage().contains("storage.placement must be striped or most-free"), e.getMessage());
    }

    @Test
    void admissionTakesItsPolicyAndReserveFromTheFile() throws IOException {
        RondoConfig config = RondoConfig.load(yaml("admission:\n  policy: adm3\n  discreteReserve: 0.35\n"));
        assertEquals(io.rondo.scheduler.admission.AdmissionPolicy.ADM3, config.admissionPolicy());
        assertEquals(0.35, config.admissionConfig().discreteReserve(), 1e-9);
        assertEquals(io.rondo.scheduler.admission.AdmissionPolicy.ADM2, RondoConfig.defaults().admissionPolicy());
        IllegalArgumentException reserve = assertThrows(IllegalArgumentException.class,
            () -> RondoConfig.load(yaml("admission:\n  discreteReserve: 1.5\n")));
        assertTrue(reserve.getMessage().contains("admission.discreteReserve must be at least 0 and below 1"),
            reserve.getMessage());
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
            () -> RondoConfig.load(yaml("admission:\n  policy: adm9\n")));
        assertTrue(policy.getMessage().contains("admission.policy"), policy.getMessage());
    }
}
