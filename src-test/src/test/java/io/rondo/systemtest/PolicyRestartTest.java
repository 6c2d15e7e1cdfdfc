package io.rondo.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.server.launch.ServeProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rondo serve} stopped and started again on the same data folder: a policy changed through
 * the admin API is in force again, its ETag is a new one, and an If-Match from before the restart
 * matches nothing. The first start counts the library's objects without the player's files.
 */
class PolicyRestartTest {

    @TempDir
    Path temp;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> policy(ServeProcess rondo, String method, String ifMatch, String body)
        throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(rondo.adminUrl() + "/api/v1/policy"))
            .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + rondo.adminToken());
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/merge-patch+json").header("If-Match", ifMatch)
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPolicyChangeOutlivesARestartWithAnETagThatNeverRepeats() throws Exception {
        Path data = Files.createDirectories(temp.resolve("data"));
        String before;
        String changed;
        try (ServeProcess rondo = RondoServe.start(data, temp.resolve("first.log"))) {
            assertTrue(rondo.printed().contains("Rondo serving 5 objects"),
                "the demo library's 5 objects, the player's files not counted:\n" + rondo.printed());
            assertTrue(rondo.printed().contains("connections: HTTP "), rondo.printed());
            before = policy(rondo, "GET", null, null).headers().firstValue("ETag").orElseThrow();
            HttpResponse<String> patched = policy(rondo, "PATCH", before,
                "{\"scheduler\":{\"policy\":\"mixed-gated-scan\"},\"admission\":{\"discreteReserve\":0.3}}");
            assertEquals(200, patched.statusCode(), patched.body());
            changed = patched.headers().firstValue("ETag").orElseThrow();
        }
        assertTrue(Files.exists(data.resolve("rondo/policy.json")), "the policy is kept in the data folder");

        try (ServeProcess rondo = RondoServe.start(data, temp.resolve("second.log"))) {
            HttpResponse<String> after = policy(rondo, "GET", null, null);
            JsonNode policy = new ObjectMapper().readTree(after.body());
            String etag = after.headers().firstValue("ETag").orElseThrow();

            assertEquals("mixed-gated-scan", policy.get("scheduler").get("policy").asText());
            assertEquals(0.3, policy.get("admission").get("discreteReserve").asDouble());
            assertNotEquals(before, etag);
            assertNotEquals(changed, etag, "a restart gives the policy a new ETag");
            assertEquals(412, policy(rondo, "PATCH", changed, "{}").statusCode(),
                "an If-Match from before the restart matches nothing");
        }
    }
}
