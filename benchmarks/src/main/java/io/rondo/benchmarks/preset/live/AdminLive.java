package io.rondo.benchmarks.preset.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.server.launch.ServeProcess;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's own count of late write rounds, from its admin API's live resource
 * ({@code GET /api/v1/live}) where the server has one: the bench does not infer what the server
 * can say. The answer's status is checked; a server without the resource is reported as such.
 */
final class AdminLive {

    /** The JSON field the server counts its write rounds that missed their round in. */
    static final String LATE_WRITE_ROUNDS = "lateWriteRounds";
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private AdminLive() {
    }

    /**
     * What {@code GET /api/v1/live} says: its status and, on 200, {@code lateWriteRounds} (the
     * shallowest such field: the server's total) and the whole answer.
     */
    static Map<String, Object> read(ServeProcess rondo) throws InterruptedException {
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(LIMIT).build().send(
                HttpRequest.newBuilder(URI.create(rondo.adminUrl() + "/api/v1/live")).timeout(LIMIT)
                    .header("Authorization", "Bearer " + rondo.adminToken()).build(),
                HttpResponse.BodyHandlers.ofString());
            m.put("status", response.statusCode());
            if (response.statusCode() != 200) {
                m.put("note", "the server has no live resource in its admin API (status " + response.statusCode()
                    + "): its late write rounds are not reported");
                return m;
            }
            JsonNode answer = new ObjectMapper().readTree(response.body());
            JsonNode late = shallowest(answer, LATE_WRITE_ROUNDS);
            m.put(LATE_WRITE_ROUNDS, late == null ? null : late.asLong());
            m.put("answer", answer);
        } catch (IOException e) {
            m.put("status", -1);
            m.put("note", "GET /api/v1/live failed: " + e.getMessage());
        }
        return m;
    }

    /** The field {@code name} nearest the root, breadth first; null if there is none. */
    static JsonNode shallowest(JsonNode root, String name) {
        Deque<JsonNode> queue = new ArrayDeque<>();
        queue.add(root);
        while (!queue.isEmpty()) {
            JsonNode node = queue.poll();
            if (node.isObject() && node.has(name) && node.get(name).isNumber()) {
                return node.get(name);
            }
            for (Iterator<JsonNode> children = node.elements(); children.hasNext();) {
                queue.add(children.next());
            }
        }
        return null;
    }
}
