package io.rondo.server.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.server.config.ClusterSettings.Node;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What a node, or {@code rondo cluster}, asks of another node: its objects (a page of
 * {@code GET /api/v1/objects?scope=node} at a time), an object's bytes (a plain GET on its HTTP
 * port, read through that node's disk schedulers like any download), a copy stored there
 * ({@code PUT /api/v1/objects/NAME?replica=true}, which that node ingests and does not copy on),
 * and a copy removed. Every call carries the admin token the nodes share; every body read is
 * held to the shared {@link Throttle}.
 */
public final class NodeCopies {

    /** The query parameter that marks an upload as a node's copy: stored where it is sent, sent nowhere else. */
    public static final String REPLICA_PARAM = "replica";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);
    private static final int PAGE = 500;

    /**
     * One object of a node, as its listing says.
     *
     * @param view the listing's item whole, as {@code GET /api/v1/objects} writes an object
     */
    public record Listed(String name, String kind, long size, long bitRate, JsonNode view) {

        /** Whether it is a clip: continuous, played as a stream. */
        public boolean continuous() {
            return "continuous".equals(kind);
        }

        /** The MIME type, with the codecs of a clip as Media Source Extensions take them. */
        public String type() {
            String mime = view.path("mimeType").asText("application/octet-stream");
            String codecs = view.path("codecs").asText("");
            return codecs.isEmpty() ? mime : mime + "; codecs=\"" + codecs + "\"";
        }

        /** A clip's duration in seconds, or 0. */
        public double durationSeconds() {
            return view.path("durationSeconds").asDouble(0);
        }

        /** When it was last changed, ISO-8601 as the listing writes it, or null. */
        public String modified() {
            return view.path("modified").asText(null);
        }
    }

    private final HttpClient http;
    private final String token;
    private final Throttle throttle;

    /**
     * @param token    the admin token every node of the cluster takes
     * @param throttle the rate every copy's reads share
     */
    public NodeCopies(String token, Throttle throttle) {
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).version(HttpClient.Version.HTTP_1_1)
            .build();
        this.token = token;
        this.throttle = throttle;
    }

    /**
     * Every object {@code node} holds itself, by name.
     *
     * @throws IOException if the node cannot be reached or refuses
     */
    public List<Listed> list(Node node) throws IOException {
        List<Listed> objects = new ArrayList<>();
        String cursor = null;
        do {
            String query = "?scope=node&limit=" + PAGE + (cursor == null ? "" : "&cursor=" + query(cursor));
            JsonNode page = JSON.readTree(send(HttpRequest.newBuilder(admin(node, "/api/v1/objects", query))
                .timeout(ANSWER_TIMEOUT).GET(), "list the objects of " + node.name()));
            for (JsonNode item : page.path("items")) {
                objects.add(new Listed(item.path("name").asText(), item.path("kind").asText(),
                    item.path("size").asLong(), item.path("bitsPerSecond").asLong(), item));
            }
            cursor = page.path("next").isTextual() ? page.path("next").asText() : null;
        } while (cursor != null);
        return objects;
    }

    /**
     * Stores {@code source} at {@code node} as object {@code name} of the given kind, a copy that
     * node keeps and does not copy on.
     *
     * @param source   the object's bytes; read at the copies' rate, closed by the caller
     * @param kind     {@code discrete} or {@code continuous}
     * @param bitRate  the bit rate its uploader declared, or 0
     * @throws IOException if the node cannot be reached, refuses the copy or fails to store it
     */
    public void put(Node node, String name, String kind, long bitRate, Supplier<InputStream> source)
        throws IOException {
        String query = "?" + REPLICA_PARAM + "=true&kind=" + kind + (bitRate > 0 ? "&bitrate=" + bitRate : "");
        send(HttpRequest.newBuilder(admin(node, "/api/v1/objects" + name, query))
            .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> throttle.wrap(source.get()))),
            "copy " + name + " to " + node.name());
    }

    /**
     * Copies object {@code name} from {@code from}, read by a GET of its HTTP port, to {@code to}.
     *
     * @throws IOException if either node fails
     */
    public void copy(Listed object, Node from, Node to) throws IOException {
        HttpResponse<InputStream> download;
        try {
            download = http.send(HttpRequest.newBuilder(uri(from.host(), from.ports().http(), object.name(), ""))
                    .GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + object.name() + " from " + from.name(), e);
        }
        try (InputStream body = download.body()) {
            if (download.statusCode() != 200) {
                throw new IOException("reading " + object.name() + " from " + from.name() + " answered "
                    + download.statusCode());
            }
            put(to, object.name(), object.kind(), object.bitRate(), () -> body);
        }
    }

    /**
     * Removes {@code name} from {@code node}; an object it does not hold is no error.
     *
     * @throws IOException if the node cannot be reached or refuses
     */
    public void remove(Node node, String name) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(admin(node, "/api/v1/objects" + name,
            "?" + REPLICA_PARAM + "=true")).timeout(ANSWER_TIMEOUT).DELETE();
        try {
            send(request, "remove " + name + " from " + node.name());
        } catch (Refused e) {
            if (e.status != 404) {
                throw e;
            }
        }
    }

    private String send(HttpRequest.Builder request, String what) throws IOException {
        HttpResponse<String> response;
        try {
            response = http.send(request.header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + what, e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new Refused(response.statusCode(), what + ": " + response.statusCode() + " "
                + detail(response.body()));
        }
        return response.body();
    }

    private static String detail(String body) {
        try {
            JsonNode problem = JSON.readTree(body);
            return problem.path("detail").asText(problem.path("title").asText(""));
        } catch (IOException e) {
            return body.length() > 200 ? body.substring(0, 200) : body;
        }
    }

    private static URI admin(Node node, String path, String query) {
        return uri(node.host(), node.ports().admin(), path, query);
    }

    /** {@code path} percent-encoded as URLs carry it (what is not ASCII too), then {@code query} as it is. */
    private static URI uri(String host, int port, String path, String query) {
        try {
            return URI.create(new URI("http", null, host, port, path, null, null).toASCIIString() + query);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("no URL can name " + path + " at " + host + ":" + port, e);
        }
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** A node's answer that is not a success, with its status. */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;
        private final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        /** The node's HTTP status. */
        public int status() {
            return status;
        }
    }
}
