package io.rondo.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The policy outlives its server: a change is kept in the data folder and is in force at the next
 * start, and the ETag never names two policies, across restarts included. The policy's resource
 * answers 304 to an If-None-Match of its ETag, and a PATCH is one strict JSON document whose buffer
 * ceiling fits the JVM's direct memory.
 */
class PolicyPersistenceTest {

    @TempDir
    Path temp;

    private AdminFixture server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A PolicyControl over the fixture's disks as {@code serve} makes one, keeping the policy in {@code file}. */
    private PolicyControl start(PolicyFile file, long directMemoryBytes) {
        return new PolicyControl(server.disks, server.streams.admission(), server.events, "mixed-incremental-scan",
            1800, file, directMemoryBytes);
    }

    /** As {@link #start}, the stream server taking the time cycle {@code scheduler.roundMs} asks for. */
    private PolicyControl startWithCycles(PolicyFile file) {
        return new PolicyControl(server.disks, server.streams.admission(), server.events, "mixed-incremental-scan",
            1800, file, 1L << 40, server.streams::requestCycle);
    }

    @Test
    void aTimeCycleSetOverTheApiIsInForceAgainAfterARestart() throws Exception {
        server = AdminFixture.start(temp, true, false);
        PolicyFile file = new PolicyFile(temp.resolve("data/rondo").resolve(PolicyControl.FILE));
        PolicyControl first = startWithCycles(file);
        first.patch(first.etag(), json("{\"scheduler\":{\"roundMs\":2000}}"));
        assertEquals(2_000_000_000L, server.streams.cycleNs());

        server.streams.requestCycle(1_000_000_000L);
        PolicyControl restarted = startWithCycles(file);
        assertEquals(2000, restarted.current().scheduler().roundMs());
        assertEquals(2_000_000_000L, server.streams.cycleNs(), "the kept cycle is in force again");

        Path kept = temp.resolve("data/rondo").resolve(PolicyControl.FILE);
        Files.writeString(kept, Files.readString(kept).replaceAll("\"roundMs\"\\s*:\\s*2000", "\"roundMs\":1500"));
        PolicyControl odd = startWithCycles(file);
        assertEquals(1000, odd.current().scheduler().roundMs(),
            "a kept cycle today's rounds cannot make starts at one round rather than keep the server from starting");
    }

    private static byte[] json(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aChangeIsInForceAgainAfterARestartAndNoETagRepeats() throws Exception {
        server = AdminFixture.start(temp, true, false);
        Path kept = temp.resolve("data/rondo").resolve(PolicyControl.FILE);
        PolicyFile file = new PolicyFile(kept);
        Set<String> etags = new HashSet<>();

        PolicyControl first = start(file, 1L << 40);
        etags.add(first.etag());
        first.patch(first.etag(), json("{\"scheduler\":{\"policy\":\"mixed-gated-scan\"},"
            + "\"admission\":{\"discreteReserve\":0.3}}"));
        assertTrue(etags.add(first.etag()), "a change makes a new ETag");
        assertTrue(Files.exists(kept), "the change is kept in the data folder");

        PolicyControl restarted = start(file, 1L << 40);
        assertEquals("mixed-gated-scan", restarted.current().scheduler().policy(), "the change outlives the restart");
        assertEquals(0.3, restarted.current().admission().discreteReserve());
        assertEquals(0.3, server.streams.admission().config().discreteReserve(), "and is in force again");
        assertTrue(etags.add(restarted.etag()), "a restart makes a new ETag: " + etags);
        String before = restarted.etag();

        PolicyControl again = start(file, 1L << 40);
        assertTrue(etags.add(again.etag()), "every restart makes a new ETag: " + etags);
        Problem stale = assertThrows(Problem.class, () -> again.patch(before, json("{}")));
        assertEquals(412, stale.status(), "an If-Match from before the restart matches nothing");

        PolicyControl elsewhere = start(new PolicyFile(temp.resolve("other/rondo").resolve(PolicyControl.FILE)),
            1L << 40);
        assertTrue(etags.add(elsewhere.etag()), "another data folder's ETags are its own");
    }

    @Test
    void aPatchIsOneStrictJsonDocumentWithACeilingTheJvmCanHold() throws Exception {
        server = AdminFixture.start(temp, true, false);
        PolicyControl policy = start(null, 1L << 30);

        assertEquals(400, assertThrows(Problem.class, () -> policy.patch("*",
            json("{\"admission\":{\"discreteReserve\":0.3}} trailing"))).status(), "trailing bytes");
        assertEquals(400, assertThrows(Problem.class, () -> policy.patch("*",
            json("{\"admission\":{\"discreteReserve\":0.3,\"discreteReserve\":0.4}}"))).status(), "a key twice");
        Problem ceiling = assertThrows(Problem.class, () -> policy.patch("*",
            json("{\"buffers\":{\"ceilingBytes\":\"1024T\"}}")));
        assertEquals(422, ceiling.status());
        assertTrue(ceiling.getMessage().contains("direct memory"), ceiling.getMessage());
        assertEquals(0.2, policy.current().admission().discreteReserve(), "nothing refused was applied");
    }

    @Test
    void thePolicyIsNotModifiedWhileItsETagHolds() throws Exception {
        server = AdminFixture.start(temp, true, false);
        HttpResponse<String> policy = server.get("/api/v1/policy", AdminFixture.READ);
        String etag = policy.headers().firstValue("ETag").orElseThrow();

        HttpResponse<String> unchanged = server.send(server.request("/api/v1/policy", AdminFixture.READ)
            .header("If-None-Match", etag).GET().build());
        assertEquals(304, unchanged.statusCode());
        assertEquals(etag, unchanged.headers().firstValue("ETag").orElseThrow());
        assertEquals("", unchanged.body());

        HttpResponse<String> changed = server.send(server.request("/api/v1/policy", AdminFixture.ADMIN)
            .header("If-Match", etag).header("Content-Type", "application/merge-patch+json")
            .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"discrete\":{\"responseBoundMs\":2500}}")).build());
        assertEquals(200, changed.statusCode(), changed.body());
        HttpResponse<String> fresh = server.send(server.request("/api/v1/policy", AdminFixture.READ)
            .header("If-None-Match", etag).GET().build());
        assertEquals(200, fresh.statusCode(), "a changed policy is sent whole");
        JsonNode body = ApiReply.JSON.readTree(fresh.body());
        assertEquals(2500, body.get("discrete").get("responseBoundMs").asLong());
    }
}
