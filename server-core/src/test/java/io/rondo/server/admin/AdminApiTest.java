package io.rondo.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.RejectReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin API through a real socket, as an operator's tools and the dashboard use it. */
class AdminApiTest {

    private static final ClientProfile PROFILE = new ClientProfile(4L << 20, 8L << 20);

    @TempDir
    Path temp;

    private AdminFixture server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private AdminFixture serve() throws Exception {
        server = AdminFixture.start(temp, true, false);
        return server;
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return ApiReply.JSON.readTree(response.body());
    }

    /** The problem a response carries, checked to be one. */
    private static JsonNode problem(HttpResponse<String> response, int status, String code) throws Exception {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        JsonNode problem = json(response);
        assertEquals(code, problem.get("code").asText());
        assertEquals("urn:rondo:problem:" + code, problem.get("type").asText());
        assertEquals(status, problem.get("status").asInt());
        assertFalse(problem.get("detail").asText().isBlank());
        return problem;
    }

    @Test
    void healthAndReadinessNeedNoTokenAndReadinessWaitsForTheStart() throws Exception {
        server = AdminFixture.start(temp, false, false);
        assertEquals(200, server.get("/healthz", null).statusCode());
        JsonNode starting = problem(server.get("/readyz", null), 503, "not-ready");
        assertEquals("starting", starting.get("state").asText());
        server.api.ready(new AdminApi.Addresses("http://127.0.0.1:1/", "rondo://127.0.0.1:2/"));
        assertEquals("ready", json(server.get("/readyz", null)).get("status").asText());
        server.api.draining();
        assertEquals("draining", problem(server.get("/readyz", null), 503, "not-ready").get("state").asText());
    }

    @Test
    void noTokenIsUnauthorizedAWrongOneIsInvalidAndAReadTokenCannotChangeAnything() throws Exception {
        serve();
        HttpResponse<String> none = server.get("/api/v1/info", null);
        problem(none, 401, "unauthorized");
        assertEquals("Bearer realm=\"rondo\"", none.headers().firstValue("WWW-Authenticate").orElseThrow());
        HttpResponse<String> wrong = server.get("/api/v1/info", "not-the-token-at-all");
        problem(wrong, 401, "unauthorized");
        assertTrue(wrong.headers().firstValue("WWW-Authenticate").orElseThrow().contains("invalid_token"));
        HttpResponse<String> basic = server.send(server.request("/api/v1/info", null)
            .header("Authorization", "Basic YWRtaW46YWRtaW4=").build());
        problem(basic, 401, "unauthorized");
        assertEquals(200, server.get("/api/v1/info", AdminFixture.READ).statusCode());
        HttpResponse<String> kick = server.send(server.request("/api/v1/streams/1", AdminFixture.READ).DELETE()
            .build());
        problem(kick, 403, "forbidden");
        assertTrue(kick.headers().firstValue("WWW-Authenticate").orElseThrow().contains("insufficient_scope"));
        problem(patch("{}", "*", AdminFixture.READ), 403, "forbidden");
        problem(server.get("/metrics", null), 401, "unauthorized");
        assertEquals(200, server.get("/metrics", AdminFixture.READ).statusCode());
    }

    @Test
    void unknownPathsAreNotFoundAndOtherMethodsNamedInAllow() throws Exception {
        serve();
        problem(server.get("/api/v1/nothing", AdminFixture.ADMIN), 404, "not-found");
        problem(server.get("/nothing", null), 404, "not-found");
        HttpResponse<String> post = server.send(server.request("/api/v1/policy", AdminFixture.ADMIN)
            .POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        problem(post, 405, "method-not-allowed");
        assertEquals("GET, PATCH", post.headers().firstValue("Allow").orElseThrow());
        problem(server.get("/api/v1/disks/no-such-disk", AdminFixture.READ), 404, "not-found");
        problem(server.get("/api/v1/streams/abc", AdminFixture.READ), 404, "not-found");
        problem(server.get("/api/v1/streams?limit=0", AdminFixture.READ), 400, "invalid-request");
        assertEquals("limit", json(server.get("/api/v1/streams?limit=x", AdminFixture.READ)).get("field").asText());
        problem(server.get("/api/v1/streams?cursor=zz", AdminFixture.READ), 400, "invalid-request");
    }

    @Test
    void aClientThatTakesNoJsonIsToldSoAndAMoveTakesOnlyJson() throws Exception {
        serve();
        problem(server.send(server.request("/api/v1/info", AdminFixture.READ).header("Accept", "text/html").build()),
            406, "not-acceptable");
        assertEquals(200, server.send(server.request("/api/v1/info", AdminFixture.READ)
            .header("Accept", "text/html, application/*;q=0.5").build()).statusCode());
        assertFalse(AcceptNegotiation.accepts("application/json;q=0", "application/json"));
        assertTrue(AcceptNegotiation.accepts("*/*", "text/event-stream; charset=utf-8"));
        problem(server.send(server.request("/api/v1/objects/t.txt/move", AdminFixture.ADMIN)
            .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("{\"to\":\"/u.txt\"}"))
            .build()), 415, "unsupported-media-type");
        HttpResponse<String> whole = patch("{\"discrete\":{\"responseBoundMs\":2000.0},\"buffers\":{\"ceilingBytes\":"
            + "1048576.0}}", "*", AdminFixture.ADMIN);
        assertEquals(200, whole.statusCode(), "2000.0 is a whole number: " + whole.body());
        assertEquals("buffers.ceilingBytes", problem(patch("{\"buffers\":{\"ceilingBytes\":100}}", "*",
            AdminFixture.ADMIN), 400, "invalid-request").get("field").asText());
    }

    @Test
    void infoNamesTheVersionTheDisksAndThePolicy() throws Exception {
        serve();
        JsonNode info = json(server.get("/api/v1/info", AdminFixture.READ));
        assertEquals("ready", info.get("state").asText());
        assertEquals(server.disks.diskNames().get(0), info.get("disks").get(0).asText());
        assertEquals("mixed-incremental-scan", info.get("policy").get("scheduler").get("policy").asText());
        assertTrue(info.get("uptimeSeconds").asDouble() >= 0);
    }

    @Test
    void eachDiskShowsItsRoundsSlackAndTheDResponseBound() throws Exception {
        serve();
        String disk = server.disks.diskNames().get(0);
        await().atMost(Duration.ofSeconds(10)).until(() ->
            json(server.get("/api/v1/disks/" + disk, AdminFixture.READ)).get("slack").size() >= 2);
        JsonNode view = json(server.get("/api/v1/disks/" + disk, AdminFixture.READ));
        JsonNode round = view.get("slack").get(view.get("slack").size() - 1);
        assertEquals(1000.0, round.get("lengthMs").asDouble());
        assertEquals(1000.0, round.get("slackMs").asDouble(), "an idle round has all its time to spare");
        assertFalse(round.get("overrun").asBoolean());
        assertEquals(1800, view.get("discreteResponse").get("boundMs").asLong());
        assertTrue(view.get("discreteResponse").get("p99Ms").isNull(), "no D-request answered yet");
        assertEquals(1, json(server.get("/api/v1/disks", AdminFixture.READ)).get("items").size());
    }

    @Test
    void aStreamIsListedFilteredAndEndedByAnOperatorWhoseClientIsTold() throws Exception {
        serve();
        try (StreamClient client = StreamClient.connect("127.0.0.1", server.streamPort());
             StreamClient other = StreamClient.connect("127.0.0.1", server.streamPort())) {
            long id = client.open("/clip.webm", 0, PROFILE).streamId();
            long second = other.open("/clip.webm", 0, PROFILE).streamId();
            assertNotNull(client.nextData());
            JsonNode page = json(server.get("/api/v1/streams?limit=1", AdminFixture.READ));
            assertEquals(1, page.get("items").size());
            JsonNode stream = page.get("items").get(0);
            assertEquals(id, stream.get("id").asLong());
            assertEquals("/clip.webm", stream.get("object").asText());
            assertEquals("tcp", stream.get("transport").asText());
            assertTrue(stream.get("client").asText().startsWith("127.0.0.1:"));
            assertEquals(8L << 20, stream.get("profile").get("bufferBytes").asLong());
            JsonNode next = json(server.get("/api/v1/streams?limit=1&cursor=" + page.get("next").asText(),
                AdminFixture.READ));
            assertEquals(second, next.get("items").get(0).get("id").asLong());
            assertTrue(next.get("next").isNull());
            assertEquals(0, json(server.get("/api/v1/streams?object=/t.txt", AdminFixture.READ)).get("items")
                .size());
            String disk = server.disks.diskNames().get(0);
            assertEquals(2, json(server.get("/api/v1/streams?disk=" + disk, AdminFixture.READ)).get("items").size());
            JsonNode diskView = json(server.get("/api/v1/disks/" + disk, AdminFixture.READ));
            assertEquals(2, diskView.get("admittedStreams").asInt(), diskView.toString());
            assertTrue(diskView.get("committedShare").asDouble() > 0, "the streams take part of each round");
            assertEquals(id, json(server.get("/api/v1/streams/" + id, AdminFixture.READ)).get("id").asLong());

            HttpResponse<String> kicked = server.send(server.request("/api/v1/streams/" + id, AdminFixture.ADMIN)
                .DELETE().build());
            assertEquals(204, kicked.statusCode());
            StreamErrorException ended = assertThrows(StreamErrorException.class, () -> {
                while (client.nextData() != null) {
                    continue;
                }
            });
            assertEquals(ErrorCode.ENDED_BY_OPERATOR.code(), ended.error().code());
            await().atMost(Duration.ofSeconds(5)).until(() -> server.streams.admission().admittedStreams() == 1);
            problem(server.get("/api/v1/streams/" + id, AdminFixture.READ), 404, "not-found");
            problem(server.send(server.request("/api/v1/streams/" + id, AdminFixture.ADMIN).DELETE().build()), 404,
                "not-found");
        }
    }

    // The dashboard's files and the API's description: kept by a browser, asked about again, 304 while unchanged.
    @Test
    void theDashboardsFilesAreRevalidatedByTheirETag() throws Exception {
        serve();
        for (String path : List.of("/admin/", "/admin/dashboard.js", "/api/v1/openapi.yaml")) {
            HttpResponse<String> file = server.get(path, null);
            String etag = file.headers().firstValue("ETag").orElseThrow();

            assertEquals(200, file.statusCode(), path);
            assertEquals("no-cache", file.headers().firstValue("Cache-Control").orElseThrow(), path);
            assertTrue(file.headers().firstValue("Date").isPresent(), path);
            HttpResponse<String> again = server.send(server.request(path, null).header("If-None-Match", etag).GET()
                .build());
            assertEquals(304, again.statusCode(), path);
            assertEquals(etag, again.headers().firstValue("ETag").orElseThrow(), path);
        }
    }

    private HttpResponse<String> patch(String body, String ifMatch, String token) throws Exception {
        HttpRequest.Builder request = server.request("/api/v1/policy", token)
            .header("Content-Type", "application/merge-patch+json")
            .method("PATCH", HttpRequest.BodyPublishers.ofString(body));
        if (ifMatch != null) {
            request.header("If-Match", ifMatch);
        }
        return server.send(request.build());
    }

    @Test
    void thePolicyChangesByMergePatchUnderItsETagAndRefusesWhatCannotChange() throws Exception {
        serve();
        HttpResponse<String> policy = server.get("/api/v1/policy", AdminFixture.READ);
        String etag = policy.headers().firstValue("ETag").orElseThrow();
        problem(patch("{\"admission\":{\"discreteReserve\":0.3}}", null, AdminFixture.ADMIN), 428,
            "precondition-required");
        problem(server.send(server.request("/api/v1/policy", AdminFixture.ADMIN).header("If-Match", etag)
            .header("Content-Type", "application/json")
            .method("PATCH", HttpRequest.BodyPublishers.ofString("{}")).build()), 415, "unsupported-media-type");
        assertEquals("admission.bogus", problem(patch("{\"admission\":{\"bogus\":1}}", etag, AdminFixture.ADMIN),
            400, "invalid-request").get("field").asText());
        assertEquals("admission.discreteReserve", problem(patch("{\"admission\":{\"discreteReserve\":1.5}}", etag,
            AdminFixture.ADMIN), 400, "invalid-request").get("field").asText());
        problem(patch("[1]", etag, AdminFixture.ADMIN), 400, "invalid-request");
        problem(patch("{not json", etag, AdminFixture.ADMIN), 400, "invalid-request");
        assertEquals("scheduler.roundMs", problem(patch("{\"scheduler\":{\"roundMs\":500}}", etag,
            AdminFixture.ADMIN), 422, "unprocessable").get("field").asText());
        assertEquals("scheduler.roundMs", problem(patch("{\"scheduler\":{\"roundMs\":3000}}", etag,
            AdminFixture.ADMIN), 422, "unprocessable").get("field").asText());
        assertEquals(1_000_000_000L, server.streams.cycleNs(), "a refused cycle changes nothing");

        HttpResponse<String> changed = patch("{\"scheduler\":{\"policy\":\"mixed-gated-scan\",\"roundMs\":4000},"
            + "\"buffers\":{\"ceilingBytes\":\"512M\"},\"network\":{\"capacityBitsPerSecond\":\"1G\"},"
            + "\"discrete\":{\"responseBoundMs\":2500}}", etag, AdminFixture.ADMIN);
        assertEquals(200, changed.statusCode(), changed.body());
        JsonNode change = json(changed);
        assertEquals("next-round", change.get("appliesFrom").asText());
        assertEquals(512L << 20, change.get("policy").get("buffers").get("ceilingBytes").asLong());
        assertEquals(1_000_000_000L, change.get("policy").get("network").get("capacityBitsPerSecond").asLong());
        assertFalse(etag.equals(changed.headers().firstValue("ETag").orElseThrow()));
        problem(patch("{}", etag, AdminFixture.ADMIN), 412, "precondition-failed");
        assertEquals(512L << 20, server.disks.buffers().ceilingBytes());
        assertEquals(4_000_000_000L, server.streams.cycleNs(), "the time cycle is four 1 s rounds now");
        assertEquals(1_000_000_000L, server.streams.admission().config().networkBitsPerSecond());
        String disk = server.disks.diskNames().get(0);
        await().atMost(Duration.ofSeconds(5)).until(() -> json(server.get("/api/v1/disks/" + disk,
            AdminFixture.READ)).get("schedulingPolicy").asText().equals("mixed-gated-scan"));
        assertEquals(2500, json(server.get("/api/v1/disks/" + disk, AdminFixture.READ)).get("discreteResponse")
            .get("boundMs").asLong());
        JsonNode unlimited = json(patch("{\"network\":{\"capacityBitsPerSecond\":null}}", "*", AdminFixture.ADMIN));
        assertTrue(unlimited.get("policy").get("network").get("capacityBitsPerSecond").isNull());
    }

    /**
     * The check: the policy changes twice while streams play, each change taking effect at
     * a round boundary, and every fragment of every stream is on time.
     */
    @Test
    void policyChangesUnderStreamLoadTakeEffectAtARoundBoundaryWithoutAGlitch() throws Exception {
        serve();
        String disk = server.disks.diskNames().get(0);
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> played = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                played.add(clients.submit(() -> {
                    try (StreamClient client = StreamClient.connect("127.0.0.1", server.streamPort())) {
                        client.open("/clip.webm", 0, PROFILE);
                        int fragments = 0;
                        for (Data data = client.nextData(); data != null; data = client.nextData()) {
                            fragments++;
                        }
                        return fragments;
                    }
                }));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> server.streams.activeStreams() == 4);
            long roundsBefore = server.disks.watch(disk).rounds();
            assertEquals(200, patch("{\"scheduler\":{\"policy\":\"mixed-gated-scan\"}}", "*", AdminFixture.ADMIN)
                .statusCode());
            await().atMost(Duration.ofSeconds(5)).until(() -> server.disks.executor(disk).schedulingPolicy()
                .toString().equals("mixed-gated-scan"));
            assertTrue(server.disks.watch(disk).rounds() > roundsBefore, "it took effect at a later round's start");
            assertEquals(200, patch("{\"scheduler\":{\"policy\":\"disjoint-incremental-scan\"}}", "*",
                AdminFixture.ADMIN).statusCode());
            await().atMost(Duration.ofSeconds(5)).until(() -> server.disks.executor(disk).schedulingPolicy()
                .toString().equals("disjoint-incremental-scan"));
            int fragments = server.library.store().catalog().byName("/clip.webm").orElseThrow().media().fragments()
                .size();
            for (Future<Integer> stream : played) {
                assertEquals(fragments, stream.get(), "every fragment arrived");
            }
        } finally {
            clients.shutdownNow();
        }
        assertEquals(0, server.streams.glitches(), "no fragment missed its deadline");
        assertEquals(0, server.disks.watch(disk).deadlineMisses(), "no C-request missed its round");
        assertEquals(0, json(server.get("/api/v1/disks/" + disk, AdminFixture.READ)).get("overruns").asLong());
    }

    @Test
    void admissionCountsDecisionsByReasonAndAStricterPolicyCountsTheStreamsPastIt() throws Exception {
        serve();
        try (StreamClient client = StreamClient.connect("127.0.0.1", server.streamPort());
             StreamClient refused = StreamClient.connect("127.0.0.1", server.streamPort())) {
            client.open("/clip.webm", 0, PROFILE);
            JsonNode change = json(patch("{\"network\":{\"capacityBitsPerSecond\":1000}}", "*", AdminFixture.ADMIN));
            assertEquals(1, change.get("exceedingStreams").asInt(), "the running stream is past the new capacity");
            assertNotNull(client.nextData(), "and keeps playing");
            StreamRejectedException no = assertThrows(StreamRejectedException.class,
                () -> refused.open("/clip.webm", 0, PROFILE));
            assertEquals(RejectReason.NETWORK, no.reject().reason());
        }
        JsonNode admission = json(server.get("/api/v1/admission", AdminFixture.READ));
        assertEquals(1, admission.get("decisions").get("accepted").asLong());
        assertEquals(1, admission.get("decisions").get("rejected").get("network").asLong());
        assertEquals(0, admission.get("decisions").get("rejected").get("disk-time").asLong());
        JsonNode newest = admission.get("recent").get(0);
        assertEquals("rejected", newest.get("result").asText());
        assertEquals("network", newest.get("reason").asText());
        assertEquals("/clip.webm", newest.get("object").asText());
        String metrics = server.get("/metrics", AdminFixture.READ).body();
        assertTrue(metrics.contains("rondo_admission_decisions_total{reason=\"network\",result=\"rejected\"} 1.0"),
            metrics);
    }

    @Test
    void theEventStreamSaysHelloThenEachRoundAndEachStream() throws Exception {
        serve();
        HttpResponse<InputStream> response = server.http.send(server.request("/api/v1/events", AdminFixture.READ)
            .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/event-stream"));
        try (BufferedReader events = new BufferedReader(new InputStreamReader(response.body(),
            StandardCharsets.UTF_8))) {
            assertEquals("event: hello", events.readLine());
            assertTrue(events.readLine().startsWith("data: {\"version\""));
            assertEquals("", events.readLine());
            String round = nextData(events, "round");
            assertTrue(round.contains("\"slackMs\""), round);
            try (StreamClient client = StreamClient.connect("127.0.0.1", server.streamPort())) {
                long id = client.open("/clip.webm", 0, PROFILE).streamId();
                String admitted = nextData(events, "stream");
                assertTrue(admitted.contains("\"type\":\"admitted\"") && admitted.contains("\"id\":" + id), admitted);
            }
            assertTrue(nextData(events, "stream").contains("\"type\":\"ended\""));
        }
    }

    /** The data line of the next event named {@code name}. */
    private static String nextData(BufferedReader events, String name) throws Exception {
        for (String line = events.readLine(); line != null; line = events.readLine()) {
            if (line.equals("event: " + name)) {
                return events.readLine();
            }
        }
        throw new AssertionError("the event stream ended before a " + name + " event");
    }

    @Test
    void metricsShowTheRoundsAgainstTheRoundLengthAndArePublicOnlyWhenSaid() throws Exception {
        server = AdminFixture.start(temp, true, true);
        String disk = server.disks.diskNames().get(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> server.disks.watch(disk).rounds() >= 2);
        HttpResponse<String> metrics = server.get("/metrics", null);
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
        String text = metrics.body();
        for (String name : List.of("rondo_rounds_total{disk=\"" + disk + "\"}",
            "rondo_round_continuous_busy_seconds_bucket{disk=\"" + disk + "\",le=\"1.0\"}",
            "rondo_discrete_response_seconds_bucket{disk=\"" + disk + "\",le=\"1.8\"}",
            "rondo_round_overruns_total{disk=\"" + disk + "\"} 0.0", "rondo_streams_active{disk=\"" + disk + "\"}",
            "rondo_io_errors_total{disk=\"" + disk + "\"}", "rondo_stream_glitches_total", "jvm_memory_used_bytes")) {
            assertTrue(text.contains(name), name + " in\n" + text);
        }
        assertFalse(text.contains("session"), "no series per session");
        HttpResponse<String> open = server.send(server.request("/metrics", null)
            .header("Accept", "application/openmetrics-text; version=1.0.0").build());
        assertTrue(open.body().trim().endsWith("# EOF"), "OpenMetrics when asked");
    }

    @Test
    void aBodyPastTheLimitIsRefusedAndTheApiDescriptionAndDashboardNeedNoToken() throws Exception {
        serve();
        String huge = "{\"a\":\"" + "x".repeat(RequestBody.MAX_BODY) + "\"}";
        problem(patch(huge, "*", AdminFixture.ADMIN), 413, "payload-too-large");
        HttpResponse<String> yaml = server.get("/api/v1/openapi.yaml", null);
        assertEquals(200, yaml.statusCode());
        assertTrue(yaml.body().contains("openapi: 3.1"), "the OpenAPI 3.1 document");
        assertEquals(301, server.get("/admin", null).statusCode());
        problem(server.get("/admin/../openapi.yaml", null), 404, "not-found");
        assertNull(json(server.get("/api/v1/streams", AdminFixture.READ)).get("next").textValue());
    }
}
