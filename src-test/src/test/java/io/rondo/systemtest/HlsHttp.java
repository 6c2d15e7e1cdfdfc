package io.rondo.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An HLS client's requests to {@code rondo serve}, as a player makes them: playlists, the byte
 * ranges they list (relative URIs resolved against the playlist's), and the admin port's streams
 * and metrics around them.
 */
final class HlsHttp {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private final String adminUrl;
    private final String adminToken;

    /**
     * @param httpUrl    the HTTP port's base URL, {@code http://127.0.0.1:PORT/}
     * @param adminUrl   the admin port's base URL
     * @param adminToken its bearer token
     */
    HlsHttp(String httpUrl, String adminUrl, String adminToken) {
        this.base = URI.create(httpUrl);
        this.adminUrl = adminUrl;
        this.adminToken = adminToken;
    }

    /** {@code path} (e.g. {@code videos/color-bars.mp4.m3u8}) on the HTTP port. */
    URI at(String path) {
        return base.resolve(path.startsWith("/") ? path.substring(1) : path);
    }

    /** GET {@code uri}. */
    HttpResponse<byte[]> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
            HttpResponse.BodyHandlers.ofByteArray());
    }

    /** GET {@code uri} as text, asserting 200. */
    String text(URI uri) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = get(uri);
        String body = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), "GET " + uri + ": " + body);
        return body;
    }

    /** The bytes of {@code range} of its URI resolved against {@code playlist}, asserting 206 and its length. */
    byte[] range(URI playlist, HlsPlaylist.Range range) throws IOException, InterruptedException {
        URI uri = playlist.resolve(range.uri());
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT)
            .header("Range", range.header()).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(206, response.statusCode(), "GET " + uri + " Range: " + range.header());
        assertEquals(range.length(), response.body().length, "GET " + uri + " Range: " + range.header());
        return response.body();
    }

    /** GET {@code path} on the admin port with its token, as JSON. */
    JsonNode admin(String path) throws IOException, InterruptedException {
        return JSON.readTree(adminText(path));
    }

    /** The admin port's Prometheus metrics, summed over the samples whose line starts with {@code prefix}. */
    double metric(String prefix) throws IOException, InterruptedException {
        return MetricsWatch.sum(adminText("/metrics"), prefix);
    }

    private String adminText(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(adminUrl + path)).timeout(TIMEOUT)
            .header("Authorization", "Bearer " + adminToken).GET().build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(200, response.statusCode(), "GET " + path + " on the admin port: " + response.body());
        return response.body();
    }
}
