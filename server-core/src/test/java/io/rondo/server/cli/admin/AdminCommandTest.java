package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.ServerMetrics;
import io.rondo.server.admin.AdminApi;
import io.rondo.server.admin.AdminRouter;
import io.rondo.server.admin.AdminServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.admin.TestCertificate;
import io.rondo.server.admin.ObjectsResource;
import io.rondo.server.admin.PolicyControl;
import io.rondo.server.cli.RondoCommand;
import io.rondo.server.config.AdminSettings;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.DirectMemory;
import io.rondo.server.config.SchedulerSettings;
import io.rondo.server.content.Library;
import io.rondo.server.observe.EventHub;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rondo admin} as a user runs it, against a real admin port: a library with one clip, its
 * disk's rounds on the paper's emulated disk, the stream port and the admin API, wired as
 * {@code rondo serve} wires them.
 */
class AdminCommandTest {

    private static final String ADMIN_TOKEN = "admin-token-of-the-test-0123456789";
    private static final String READ_TOKEN = "read-token-of-the-test-0123456789";
    private static final long RESPONSE_BOUND_MS = 1800;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    private Library library;
    private DiskRuntime disks;
    private StreamServer streams;
    private PolicyControl policy;
    private RondoMetrics metrics;
    private AdminRouter router;
    private AdminServer adminServer;
    private Path adminTokenFile;
    private Path readTokenFile;
    private StringWriter stdout = new StringWriter();
    private StringWriter stderr = new StringWriter();

    @BeforeEach
    void serve() throws Exception {
        library = running(Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc()));
        Path clip = temp.resolve("clip.webm");
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            Files.copy(in, clip);
        }
        library.ingest().ingest(new IngestRequest(clip, "/clip.webm", null, 0), copied -> { });
        disks = running(new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk())
                .emulate(true)
                .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock())));
        streams = running(StreamServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks,
            AdmissionConfig.defaults(), SystemClocks.epochClock()));
        metrics = new RondoMetrics();
        EventHub events = new EventHub(() -> AdminApi.hello(disks));
        ServerMetrics.bind(metrics, events, disks, streams, RESPONSE_BOUND_MS);
        policy = new PolicyControl(disks, streams.admission(), events, SchedulerSettings.DEFAULT_POLICY,
            RESPONSE_BOUND_MS, null, DirectMemory.maxBytes(), streams::requestCycle);
        AdminApi api = new AdminApi(disks, streams, policy, events, metrics, false, SystemClocks.utc());
        router = new ObjectsResource(library, streams, AdminSettings.DEFAULT_MAX_UPLOAD)
            .routes(api.routes(new AdminRouter()));
        adminServer = running(AdminServer.start(new InetSocketAddress("127.0.0.1", 0), router,
            AdminTokens.of(ADMIN_TOKEN, READ_TOKEN), metrics, AdminSettings.DEFAULT_MAX_UPLOAD, null, null,
            HttpSettings.DEFAULT_HEADER_TIMEOUT_MS, SystemClocks.utc(), SystemClocks.nanoClock(),
            ConnectionLimit.unlimited("admin")));
        disks.start();
        adminTokenFile = Files.writeString(temp.resolve("admin.token"), ADMIN_TOKEN + "\n");
        readTokenFile = Files.writeString(temp.resolve("read.token"), READ_TOKEN + "\n");
    }

    /** Closes what {@link #serve} started, the last first. */
    @AfterEach
    void stop() throws Exception {
        while (!running.isEmpty()) {
            running.pop().close();
        }
    }

    private <T extends AutoCloseable> T running(T resource) {
        running.push(resource);
        return resource;
    }

    /** {@code rondo admin --url URL --token-file admin.token ARGS}. */
    private int admin(String... args) {
        List<String> line = new ArrayList<>(List.of("admin", "--url", adminServer.url(), "--token-file",
            adminTokenFile.toString()));
        line.addAll(List.of(args));
        return rondo(line.toArray(String[]::new));
    }

    private int rondo(String... args) {
        stdout = new StringWriter();
        stderr = new StringWriter();
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    private JsonNode json(String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of(args));
        line.add("--json");
        assertEquals(0, admin(line.toArray(String[]::new)), stderr.toString());
        return JSON.readTree(stdout.toString());
    }

    @Test
    void policyListsEverySettingAsKeyEqualsValue() {
        assertEquals(0, admin("policy"), stderr.toString());
        String out = stdout.toString();
        assertTrue(out.contains("scheduler.policy = " + SchedulerSettings.DEFAULT_POLICY + "\n"), out);
        assertTrue(out.contains("scheduler.roundMs = 1000\n"), out);
        assertTrue(out.contains("discrete.responseBoundMs = " + RESPONSE_BOUND_MS + "\n"), out);
        assertTrue(out.contains("network.capacityBitsPerSecond = unlimited\n"), out);
        assertTrue(out.matches("(?s).*buffers\\.ceilingBytes = \\d+ \\(\\d+(\\.\\d)? [KMGT]iB\\)\n.*"), out);
    }

    @Test
    void setChangesTheSchedulingPolicyAndTheDiskTakesItAtTheNextRound() throws Exception {
        assertEquals(0, admin("set", "scheduler.policy=mixed-gated-scan"), stderr.toString());
        assertTrue(stdout.toString().contains("scheduler.policy = mixed-gated-scan, was "
            + SchedulerSettings.DEFAULT_POLICY + "\n"), stdout.toString());
        assertTrue(stdout.toString().endsWith("applies from the next round\n"), stdout.toString());

        assertEquals("mixed-gated-scan", json("policy").path("scheduler").path("policy").asText());
        await().atMost(Duration.ofSeconds(10)).until(
            () -> json("disks").path("items").get(0).path("schedulingPolicy").asText().equals("mixed-gated-scan"));
        assertEquals(0, admin("disks"), stderr.toString());
        assertTrue(stdout.toString().contains("policy            mixed-gated-scan\n"), stdout.toString());
        assertTrue(stdout.toString().matches("(?s).*\nslack +\\S+  the last \\d+ rounds, .*"), stdout.toString());
    }

    @Test
    void setTakesTheKeysOfRondoYamlAndSendsTheirValuesAsThePolicyHasThem() throws Exception {
        assertEquals(0, admin("set", "buffers.ceiling=512M", "network.capacity=1G", "discrete.responseBound=1.5s"),
            stderr.toString());
        assertTrue(stdout.toString().contains("buffers.ceilingBytes = 536870912 (512 MiB), was "), stdout.toString());
        JsonNode now = json("policy");
        assertEquals(536_870_912L, now.path("buffers").path("ceilingBytes").asLong(), now.toString());
        assertEquals(1_000_000_000L, now.path("network").path("capacityBitsPerSecond").asLong(), now.toString());
        assertEquals(1500, now.path("discrete").path("responseBoundMs").asLong(), now.toString());

        assertEquals(0, admin("set", "network.capacity=unlimited", "admission.discreteReserve=0.3",
            "discrete.responseBound=auto"), stderr.toString());
        now = json("policy");
        assertTrue(now.path("network").path("capacityBitsPerSecond").isNull(), now.toString());
        assertEquals(0.3, now.path("admission").path("discreteReserve").asDouble(), 1e-9, now.toString());
        assertEquals(RondoConfig.autoResponseBoundMs(1000, 0.3), now.path("discrete").path("responseBoundMs").asLong(),
            "auto: sized from the round and the new reserve, as rondo.yaml's auto is");
    }

    @Test
    void anUnknownKeyIsBadUsageListingTheKeysAndNothingIsSent() throws Exception {
        String etag = policy.etag();
        assertEquals(2, admin("set", "scheduler.policy=mixed-gated-scan", "buffers.size=1G"));
        assertTrue(stderr.toString().startsWith("rondo admin set: unknown key 'buffers.size'; the keys are "
            + "scheduler.policy, "), stderr.toString());
        assertTrue(stderr.toString().contains("buffers.ceiling (512M)"), stderr.toString());
        assertEquals(etag, policy.etag(), "the policy was not changed");
        assertEquals(SchedulerSettings.DEFAULT_POLICY, policy.current().scheduler().policy());

        assertEquals(2, rondo("admin", "--url", "http://127.0.0.1:" + closedPort(), "--token-file",
            adminTokenFile.toString(), "set", "buffers.size=1G"), "judged before any connection: " + stderr);
    }

    @Test
    void aRoundShorterThanTheStoredFragmentsIsRefusedAndTheServerSaysWhy() {
        assertEquals(1, admin("set", "scheduler.roundMs=500"));
        assertTrue(stderr.toString().startsWith("rondo admin set: the server answered 422 Cannot be applied: a time "
            + "cycle must be a power of two of rounds of 1000 ms"), stderr.toString());
        assertEquals(0, admin("set", "scheduler.roundMs=2000"), stderr.toString());
        assertEquals(2_000_000_000L, streams.cycleNs());
    }

    @Test
    void aReadTokenReadsButCannotSet() {
        assertEquals(0, rondo("admin", "--url", adminServer.url(), "--token-file", readTokenFile.toString(), "policy"),
            stderr.toString());
        assertEquals(1, rondo("admin", "--url", adminServer.url(), "--token-file", readTokenFile.toString(), "set",
            "scheduler.policy=mixed-gated-scan"));
        assertEquals("rondo admin set: the server answered 403 Forbidden: this needs the admin token; the read token "
            + "only reads\n", stderr.toString());
        assertEquals(SchedulerSettings.DEFAULT_POLICY, policy.current().scheduler().policy());
    }

    @Test
    void aServerThatIsNotThereExits3SayingWhereItLooked() throws Exception {
        String url = "http://127.0.0.1:" + closedPort();
        assertEquals(3, rondo("admin", "--url", url, "--token-file", adminTokenFile.toString(), "streams"));
        assertTrue(stderr.toString().startsWith("rondo admin streams: cannot reach the admin API at " + url + ": "),
            stderr.toString());
        assertTrue(stderr.toString().contains("is rondo serve running there? --url names another address"),
            stderr.toString());
        assertEquals(1, stderr.toString().lines().count(), "one line, no stack trace: " + stderr);
    }

    @Test
    void streamsListsARunningStreamAndKickEndsItForItsClient() throws Exception {
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            Accept accept = client.open("/clip.webm", 0, new ClientProfile(4L << 20, 8L << 20));
            client.pause();
            long id = accept.streamId();

            assertEquals(0, admin("streams"), stderr.toString());
            List<String> rows = stdout.toString().lines().toList();
            assertTrue(rows.get(0).matches("ID +OBJECT +CLIENT +TRANSPORT +STATE +BUFFERS +POSITION +BYTES +GLITCHES "
                + "+MAX LATENESS +INITIAL LATENCY"), rows.get(0));
            assertEquals(2, rows.size(), stdout.toString());
            assertTrue(rows.get(1).matches(" *" + id + " +/clip\\.webm +127\\.0\\.0\\.1:\\d+ +tcp +\\w+ +clbufrate .*"),
                rows.get(1));

            assertEquals(0, admin("streams", "--object", "/clip.webm", "--json"), stderr.toString());
            JsonNode listed = JSON.readTree(stdout.toString());
            assertEquals(id, listed.path("items").get(0).path("id").asLong(), listed.toString());
            assertTrue(listed.path("next").isNull(), listed.toString());

            assertEquals(0, admin("kick", Long.toString(id)), stderr.toString());
            assertEquals("ended stream " + id + "\n", stdout.toString());
            StreamErrorException ended = assertThrows(StreamErrorException.class, () -> {
                while (client.nextData() != null) {
                    continue;
                }
            }, "the stream ends with ERROR, not END");
            assertEquals(ErrorCode.ENDED_BY_OPERATOR.code(), ended.error().code());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> admin("streams") == 0
            && stdout.toString().equals("no streams are running\n"));
        assertEquals(1, admin("kick", "12345"));
        assertEquals("rondo admin kick: the server answered 404 Not found: no stream 12345 is running\n",
            stderr.toString());
    }

    @Test
    void jsonPrintsTheApisJsonWhereverTheOptionIsGiven() throws Exception {
        assertEquals(0, admin("--json", "policy"), stderr.toString());
        JsonNode before = JSON.readTree(stdout.toString());
        assertEquals(SchedulerSettings.DEFAULT_POLICY, before.path("scheduler").path("policy").asText(),
            before.toString());

        JsonNode disk = json("disks").path("items").get(0);
        assertEquals(library.store().disks().get(0).name(), disk.path("name").asText(), disk.toString());
        assertEquals(RESPONSE_BOUND_MS, disk.path("discreteResponse").path("boundMs").asLong(), disk.toString());

        JsonNode change = json("set", "admission.discreteReserve=0.25");
        assertEquals(0.25, change.path("policy").path("admission").path("discreteReserve").asDouble(), 1e-9);
        assertEquals(0, change.path("exceedingStreams").asInt(), change.toString());

        assertTrue(json("streams").path("items").isArray());
    }

    @Test
    void theTokenComesFromTheDataFolderOrTheEnvironment() throws Exception {
        Files.writeString(library.dataFolder().resolve("rondo/admin.token"), ADMIN_TOKEN + "\n");
        assertEquals(0, rondo("admin", "--url", adminServer.url(), "--data", library.dataFolder().toString(), "policy"),
            stderr.toString());

        assertEquals(2, rondo("admin", "--url", adminServer.url(), "--data", temp.resolve("elsewhere").toString(),
            "policy"));
        assertTrue(stderr.toString().startsWith("rondo admin policy: no admin token at "
            + temp.resolve("elsewhere").toAbsolutePath().resolve("rondo/admin.token")), stderr.toString());

        String[] args = {"--url", adminServer.url(), "--data", temp.resolve("elsewhere").toString(), "policy"};
        assertEquals(0, withEnvironment(ADMIN_TOKEN, args), stderr.toString());
        assertEquals(1, withEnvironment("a-token-this-server-does-not-know", args));
        assertTrue(stderr.toString().startsWith("rondo admin policy: the server answered 401 Unauthorized: "),
            stderr.toString());
        assertTrue(stderr.toString().contains("(the token came from $RONDO_ADMIN_TOKEN)"), stderr.toString());
    }

    /** {@code rondo admin ARGS} with {@code RONDO_ADMIN_TOKEN} set to {@code token}. */
    private int withEnvironment(String token, String... args) {
        stdout = new StringWriter();
        stderr = new StringWriter();
        CommandLine line = new CommandLine(new AdminCommand(Map.of(AdminTokens.ADMIN_ENV, token)));
        line.setOut(new PrintWriter(stdout, true));
        line.setErr(new PrintWriter(stderr, true));
        line.setCommandName("rondo admin");
        return line.execute(args);
    }

    @Test
    void uploadStreamsAFileIntoTheLibraryAndSaysWhatWasStored() throws Exception {
        Path file = temp.resolve("color bars.mp4");
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/color-bars.mp4")) {
            Files.copy(in, file);
        }

        assertEquals(0, admin("upload", file.toString(), "/videos/color bars+1.mp4"), stderr.toString());
        assertTrue(stdout.toString().matches("uploaded " + Pattern.quote(file.toString()) + " as /videos/color "
            + "bars\\+1\\.mp4 \\(continuous, \\d+ fragments, [\\d.]+ KiB\\)\n"), stdout.toString());
        assertTrue(library.store().catalog().byName("/videos/color bars+1.mp4").isPresent(), "the name as given");

        assertEquals(0, admin("upload", "--kind", "discrete", file.toString(), "/files/bars.mp4"), stderr.toString());
        assertTrue(stdout.toString().matches("uploaded .* as /files/bars\\.mp4 \\(discrete, [\\d.]+ KiB\\)\n"),
            stdout.toString());

        assertEquals(1, admin("upload", file.toString(), "/clip.webm"));
        assertTrue(stderr.toString().startsWith("rondo admin upload: the server answered 409 Conflict: "),
            stderr.toString());

        byte[] bytes = new byte[17 << 20];
        new Random(17).nextBytes(bytes);
        Path big = Files.write(temp.resolve("big.bin"), bytes);
        assertEquals(0, admin("upload", big.toString(), "big.bin"), stderr.toString());
        assertEquals("uploaded " + big + " as /big.bin (discrete, 17 MiB)\n", stdout.toString(),
            "sent with a progress bar on standard error");
        assertEquals(bytes.length, library.store().catalog().byName("/big.bin").orElseThrow().size());

        assertEquals(2, admin("upload", temp.resolve("missing.mp4").toString(), "/missing.mp4"));
        assertTrue(stderr.toString().contains("missing.mp4 is not a file that can be read"), stderr.toString());
    }

    @Test
    void anHttpsAdminPortIsTrustedByItsCertificate() throws Exception {
        TestCertificate certificate = TestCertificate.make(temp);
        Path cert = certificate.cert();
        Path key = certificate.key();
        String url = running(AdminServer.start(new InetSocketAddress("127.0.0.1", 0), router,
            AdminTokens.of(ADMIN_TOKEN, READ_TOKEN), metrics, AdminSettings.DEFAULT_MAX_UPLOAD, cert, key,
            HttpSettings.DEFAULT_HEADER_TIMEOUT_MS, SystemClocks.utc(), SystemClocks.nanoClock(),
            ConnectionLimit.unlimited("admin"))).url();

        assertEquals(0, rondo("admin", "--url", url, "--token-file", adminTokenFile.toString(), "--cacert",
            cert.toString(), "policy"), stderr.toString());
        assertTrue(stdout.toString().startsWith("scheduler.policy = "), stdout.toString());

        Path config = Files.writeString(temp.resolve("rondo.yaml"), "admin:\n  tls:\n    cert: " + cert + "\n    key: "
            + key + "\n");
        assertEquals(0, rondo("admin", "--url", url, "--token-file", adminTokenFile.toString(), "--config",
            config.toString(), "policy"), "admin.tls.cert is trusted by default: " + stderr);

        assertEquals(3, rondo("admin", "--url", url, "--token-file", adminTokenFile.toString(), "policy"));
        assertTrue(stderr.toString().startsWith("rondo admin policy: cannot reach the admin API at " + url
            + ": TLS failed: "), "a certificate Java does not trust: " + stderr);
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
