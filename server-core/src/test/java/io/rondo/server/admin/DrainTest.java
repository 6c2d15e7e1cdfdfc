package io.rondo.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.cluster.agent.AgentLine;
import io.rondo.server.cluster.agent.AgentProbe;
import io.rondo.server.cli.RondoCommand;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.stream.Drain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole server with its agent port, drained and let go again through the admin API: the line
 * HAProxy reads on the agent's socket, a new stream refused while the one playing goes on and HTTP
 * is served, and the metrics; and its disk failing, then working again.
 */
@Timeout(120)
class DrainTest {

    private static final String CLIP = "/clip.webm";
    private static final ClientProfile PROFILE = new ClientProfile(4L << 20, 8L << 20);
    private static final Duration PROBE = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    private final AtomicBoolean diskFails = new AtomicBoolean();
    private Library library;
    private RondoServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void serve() throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        byte[] clip;
        try (InputStream in = DrainTest.class.getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            clip = in.readAllBytes();
        }
        library.ingest().ingest(new IngestRequest(Files.write(temp.resolve("c.webm"), clip), CLIP, null, 0), c -> { });
        library.ingest().ingest(new IngestRequest(Files.writeString(temp.resolve("t.txt"), "text"), "/t.txt", null,
            0), c -> { });
        server = RondoServer.start(new RondoContext().library(library).model(DiskProfile.paperDisk()).emulate(true)
            .agentPort(0).tokens(AdminTokens.of(AdminFixture.ADMIN, AdminFixture.READ))
            .device(device -> (request, task, scratch) -> {
                if (diskFails.get()) {
                    throw new IOException("an input/output error, as a dying disk gives");
                }
                return device.read(request, task, scratch);
            }));
    }

    @AfterEach
    void stop() {
        server.close();
        library.close();
    }

    @Test
    void aDrainedNodeTellsItsAgentRefusesANewStreamAndServesOnUntilTheDrainEnds() throws Exception {
        InetSocketAddress agent = server.agentAddress().orElseThrow();
        assertEquals("up ready 100%", AgentProbe.read(agent, PROBE).format());

        try (StreamClient playing = stream()) {
            playing.open(CLIP, 0, PROFILE);
            JsonNode drained = json(admin("POST", "/api/v1/server/drain", AdminFixture.ADMIN), 200);
            assertTrue(drained.path("draining").asBoolean() && drained.path("drainedByOperator").asBoolean(),
                drained.toString());

            AgentLine line = AgentProbe.read(agent, PROBE);
            assertEquals(AgentLine.Health.UP, line.health(), line.format());
            assertEquals(AgentLine.Admin.DRAIN, line.admin(), line.format());
            assertEquals("an operator drained the server", line.reason());
            try (StreamClient refused = stream()) {
                Reject reject = assertThrows(StreamRejectedException.class, () -> refused.open(CLIP, 0, PROFILE))
                    .reject();
                assertEquals(RejectReason.DISK_TIME, reject.reason(), "a shortage: retrying elsewhere helps");
                assertEquals(Drain.RETRY_AFTER_SECONDS, reject.retryAfterSeconds());
                assertTrue(reject.message().startsWith("an operator drained the server"), reject.message());
            }
            assertTrue(playing.nextData() != null, "the stream playing goes on");
            assertEquals("text", get("/t.txt").body(), "HTTP is served");
            JsonNode state = json(admin("GET", "/api/v1/server", AdminFixture.READ), 200);
            assertEquals(line.format(), state.path("agent").asText());
            String metrics = admin("GET", "/metrics", AdminFixture.READ).body();
            assertTrue(metrics.contains("rondo_draining 1.0"), metrics);
            assertTrue(metrics.contains("rondo_agent_weight "), metrics);
            assertTrue(json(admin("GET", "/api/v1/admission", AdminFixture.READ), 200).path("decisions")
                .path("rejected").path("draining").asLong() == 1, "the refusal is in admission's log");
        }

        JsonNode ready = json(admin("DELETE", "/api/v1/server/drain", AdminFixture.ADMIN), 200);
        assertTrue(!ready.path("draining").asBoolean() && ready.path("reason").isNull(), ready.toString());
        assertEquals(AgentLine.Admin.READY, AgentProbe.read(agent, PROBE).admin());
        try (StreamClient again = stream()) {
            assertTrue(again.open(CLIP, 0, PROFILE).streamId() > 0, "a new stream is admitted again");
        }
    }

    @Test
    void aStoppingServerSaysDrainWhateverAnOperatorDoes() throws Exception {
        server.drain();

        JsonNode state = json(admin("DELETE", "/api/v1/server/drain", AdminFixture.ADMIN), 200);

        assertTrue(state.path("draining").asBoolean() && state.path("stopping").asBoolean(), state.toString());
        assertEquals(AgentLine.Admin.DRAIN, AgentProbe.read(server.agentAddress().orElseThrow(), PROBE).admin());
    }

    @Test
    void aNodeWhoseDiskFailsIsDownUntilItsDiskReadsAgain() throws Exception {
        InetSocketAddress agent = server.agentAddress().orElseThrow();
        diskFails.set(true);

        assertEquals(500, get("/t.txt").statusCode());
        AgentLine down = AgentProbe.read(agent, PROBE);
        assertEquals(AgentLine.Health.DOWN, down.health(), down.format());
        assertTrue(down.reason().startsWith("disk " + server.disks().diskNames().get(0) + " fails: "), down.reason());

        diskFails.set(false);
        assertEquals("text", get("/t.txt").body());
        assertEquals(AgentLine.Health.UP, AgentProbe.read(agent, PROBE).health());
    }

    @Test
    void onlyTheAdminTokenDrains() throws Exception {
        assertEquals(403, admin("POST", "/api/v1/server/drain", AdminFixture.READ).statusCode());
        assertEquals(401, admin("POST", "/api/v1/server/drain", null).statusCode());
        assertTrue(!json(admin("GET", "/api/v1/server", AdminFixture.READ), 200).path("draining").asBoolean());
    }

    @Test
    void rondoAdminDrainDrainsTheServerAndOffEndsTheDrain() throws Exception {
        Path token = Files.writeString(temp.resolve("admin.token"), AdminFixture.ADMIN + "\n");

        assertEquals("draining: an operator drained the server; no new stream is admitted; the agent says "
            + "'up drain 100% #an operator drained the server'\n", rondo("admin", "--url", server.admin().url(),
            "--token-file", token.toString(), "drain"));
        assertTrue(server.streams().drain().byOperator());
        assertEquals("ready: new streams are admitted; the agent says 'up ready 100%'\n", rondo("admin", "--url",
            server.admin().url(), "--token-file", token.toString(), "drain", "--off"));
        assertTrue(!server.streams().drain().draining());
    }

    /** What {@code rondo ARGS} prints, having exited 0. */
    private static String rondo(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, RondoCommand.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)),
            err.toString());
        return out.toString();
    }

    private StreamClient stream() throws Exception {
        InetSocketAddress address = server.streams().address();
        return StreamClient.connect(address.getHostString(), address.getPort());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(RondoServer.url("http", server.http().address())
            + path.substring(1))).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A request on the admin port, held to the OpenAPI document. */
    private HttpResponse<String> admin(String method, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.admin().url() + path))
            .timeout(Duration.ofSeconds(10)).method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpRequest built = request.build();
        return AdminFixture.conforming(built, http.send(built, HttpResponse.BodyHandlers.ofString()));
    }

    private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
        assertEquals(status, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }
}
