package io.rondo.server.admin;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.ServerMetrics;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.observe.EventHub;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import io.rondo.server.config.DirectMemory;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A running server's admin port over a small real library, as {@code rondo serve} wires it: the
 * paper's disk emulated (so rounds carry real C-requests on the model's time), the stream port,
 * the metrics, the events and the routes, behind a real socket. It holds one clip,
 * {@code /clip.webm}, and one document, {@code /t.txt}.
 */
final class AdminFixture implements AutoCloseable {

    static final String ADMIN = "admin-token-0123456789abcdef";
    static final String READ = "read-token-0123456789abcdef";

    final Library library;
    final DiskRuntime disks;
    final StreamServer streams;
    final RondoMetrics metrics;
    final EventHub events;
    final PolicyControl policy;
    final AdminApi api;
    final AdminServer server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private AdminFixture(Library library, DiskRuntime disks, StreamServer streams, RondoMetrics metrics,
                         EventHub events, PolicyControl policy, AdminApi api, AdminServer server) {
        this.library = library;
        this.disks = disks;
        this.streams = streams;
        this.metrics = metrics;
        this.events = events;
        this.policy = policy;
        this.api = api;
        this.server = server;
    }

    /** A server in {@code folder}, ready unless {@code ready} is false; /metrics public if asked. */
    static AdminFixture start(Path folder, boolean ready, boolean metricsPublic) throws Exception {
        return start(folder, ready, metricsPublic, 1L << 30);
    }

    /** A ready server in {@code folder} that takes uploads of up to {@code maxUploadBytes}. */
    static AdminFixture start(Path folder, long maxUploadBytes) throws Exception {
        return start(folder, true, false, maxUploadBytes);
    }

    private static AdminFixture start(Path folder, boolean ready, boolean metricsPublic, long maxUploadBytes)
        throws Exception {
        Library library = Library.open(RondoConfig.defaults(), folder.resolve("data"), SystemClocks.utc());
        byte[] clip;
        try (InputStream in = AdminFixture.class.getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            clip = in.readAllBytes();
        }
        library.ingest().ingest(new IngestRequest(Files.write(folder.resolve("c.webm"), clip), "/clip.webm", null, 0),
            c -> { });
        library.ingest().ingest(new IngestRequest(Files.writeString(folder.resolve("t.txt"), "text"), "/t.txt", null,
            0), c -> { });
        DiskRuntime disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk())
                .emulate(true)
                .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock()));
        library.directory().whenDeletedAndUnread(disks::forget);
        StreamServer streams = StreamServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks,
            AdmissionConfig.defaults(), SystemClocks.epochClock());
        RondoMetrics metrics = new RondoMetrics();
        EventHub events = new EventHub(() -> AdminApi.hello(disks));
        ServerMetrics.bind(metrics, events, disks, streams, 1800);
        PolicyControl policy = new PolicyControl(disks, streams.admission(), events, "mixed-incremental-scan", 1800,
            null, DirectMemory.maxBytes(), streams::requestCycle);
        AdminApi api = new AdminApi(disks, streams, policy, events, metrics, metricsPublic, SystemClocks.utc());
        AdminRouter router = api.routes(new AdminRouter());
        new ObjectsResource(library, streams, maxUploadBytes).routes(router);
        AdminServer server = AdminServer.start(new InetSocketAddress("127.0.0.1", 0), router,
            AdminTokens.of(ADMIN, READ), metrics, maxUploadBytes, null, null, HttpSettings.DEFAULT_HEADER_TIMEOUT_MS,
            SystemClocks.utc(), SystemClocks.nanoClock(), ConnectionLimit.unlimited("admin"));
        disks.start();
        if (ready) {
            api.ready(new AdminApi.Addresses("http://127.0.0.1:1/", "rondo://127.0.0.1:" + streams.address().getPort()
                + "/"));
        }
        return new AdminFixture(library, disks, streams, metrics, events, policy, api, server);
    }

    /** A request to {@code path} on the admin port with {@code token} (none if null). */
    HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server.url() + path))
            .timeout(Duration.ofSeconds(10));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder;
    }

    /**
     * Sends a request and returns the response with its body as text, having held the response to
     * the OpenAPI document: its status documented, its body valid against the schema, its headers
     * as the document says. Paths the document has no route for (a 404 for an unknown path) and
     * methods it has not (a 405) are not checked.
     */
    HttpResponse<String> send(HttpRequest request) throws Exception {
        return conforming(request, http.send(request, HttpResponse.BodyHandlers.ofString()));
    }

    /** The response to {@code request}, having held it to the OpenAPI document as {@link #send} does. */
    static HttpResponse<String> conforming(HttpRequest request, HttpResponse<String> response) {
        String template;
        if (response.statusCode() == 405) {
            return response;
        }
        try {
            template = OpenApiConformance.pathTemplateOf(request.method(), request.uri().getRawPath());
        } catch (AssertionError undocumented) {
            return response;
        }
        OpenApiConformance.assertConforms(request.method(), template, response.statusCode(),
            response.headers().firstValue("Content-Type").orElse(null), response.body());
        Map<String, String> headers = new HashMap<>();
        response.headers().map().forEach((name, values) -> headers.put(name, values.get(0)));
        OpenApiConformance.assertHeadersConform(request.method(), template, response.statusCode(), headers);
        return response;
    }

    /** {@code GET path} with {@code token}. */
    HttpResponse<String> get(String path, String token) throws Exception {
        return send(request(path, token).GET().build());
    }

    int streamPort() {
        return streams.address().getPort();
    }

    @Override
    public void close() {
        server.close();
        streams.close();
        disks.close();
        library.close();
    }
}
