package io.rondo.benchmarks.preset.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

/**
 * What the cluster preset asks of the nodes over HTTP, every answer's status checked: uploads
 * through a node's admin API, its listing, its meters ({@code /metrics}), and objects read back
 * through HAProxy. Objects' names are the preset's own, {@code /cluster-N.mp4}: a path as they are.
 */
final class NodeApi {

    private static final Duration ASK_LIMIT = Duration.ofSeconds(30);

    /**
     * One node's meters: the streams it has in service, its fragments not on the wire by their deadline, and by
     * how much its disk's last rounds took longer than its model says (admission charges by it).
     */
    record Meters(long streams, long glitches, double inflation) {
    }

    /** An object read through HAProxy: the answer's status, its body's length and SHA-256 (hex). */
    record Fetched(int status, long bytes, String sha256) {
    }

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(ASK_LIMIT).build();
    private final String token;

    NodeApi(String token) {
        this.token = token;
    }

    /** {@code PUT /api/v1/objects/NAME} with {@code file}'s bytes; the nodes that hold it, as its answer says. */
    String upload(String adminUrl, Path file, String name) throws IOException {
        HttpResponse<String> answer = send(HttpRequest.newBuilder(URI.create(adminUrl + "/api/v1/objects"
                + name)).header("Authorization", "Bearer " + token)
            .PUT(HttpRequest.BodyPublishers.ofFile(file)), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 201) {
            throw new IOException("PUT " + name + " at " + adminUrl + " answered " + answer.statusCode() + ": "
                + answer.body());
        }
        return answer.headers().firstValue("Rondo-Nodes").orElseThrow(() ->
            new IOException("PUT " + name + " at " + adminUrl + " answered without Rondo-Nodes: a node not in a "
                + "cluster"));
    }

    /** Whether the node's cluster-wide listing ({@code GET /api/v1/objects}) names each of {@code names}. */
    boolean listsAll(String adminUrl, List<String> names) throws IOException {
        String listing = ask(adminUrl + "/api/v1/objects?limit=500");
        return names.stream().allMatch(name -> listing.contains("\"" + name + "\""));
    }

    /** The node's {@code rondo_streams_active} (over its disks), {@code rondo_stream_glitches_total} and {@code
     * rondo_disk_measured_inflation} (its one disk). */
    Meters meters(String adminUrl) throws IOException {
        String metrics = ask(adminUrl + "/metrics");
        return new Meters((long) sum(metrics, "rondo_streams_active"), (long) sum(metrics,
            "rondo_stream_glitches_total"), sum(metrics, "rondo_disk_measured_inflation"));
    }

    /** {@code GET BASE/NAME}, its body read whole and digested. */
    Fetched get(String baseUrl, String name) throws IOException {
        HttpResponse<InputStream> answer = send(HttpRequest.newBuilder(URI.create(baseUrl + name)).GET(),
            HttpResponse.BodyHandlers.ofInputStream());
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
        long bytes = 0;
        try (InputStream body = answer.body()) {
            byte[] chunk = new byte[64 * 1024];
            for (int n = body.read(chunk); n >= 0; n = body.read(chunk)) {
                sha.update(chunk, 0, n);
                bytes += n;
            }
        }
        return new Fetched(answer.statusCode(), bytes, HexFormat.of().formatHex(sha.digest()));
    }

    private String ask(String url) throws IOException {
        HttpResponse<String> answer = send(HttpRequest.newBuilder(URI.create(url))
            .header("Authorization", "Bearer " + token).GET(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IOException("GET " + url + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return answer.body();
    }

    private <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body)
        throws IOException {
        try {
            return client.send(request.timeout(ASK_LIMIT).build(), body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking a node", e);
        }
    }

    /** The sum of every sample of {@code metric} in Prometheus's text format (over its labels). */
    static double sum(String metrics, String metric) {
        double total = 0;
        for (String line : metrics.lines().toList()) {
            if (line.startsWith(metric + "{") || line.startsWith(metric + " ")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }
}
