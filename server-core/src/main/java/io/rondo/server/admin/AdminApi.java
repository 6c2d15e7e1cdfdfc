package io.rondo.server.admin;

import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.server.http.ConditionalRequests;
import io.rondo.server.observe.AdmissionLog;
import io.rondo.server.observe.DiskWatch;
import io.rondo.server.observe.EventHub;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import io.rondo.server.stream.StreamStatus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The admin port's resources (docs/admin-api.md; {@code GET /api/v1/openapi.yaml} describes each):
 * the server's info and health, its streams, its disks' rounds, its policy, its admission
 * decisions, its events and its metrics, plus the dashboard's files.
 */
public final class AdminApi {

    /** Where the dashboard's files and the API's description are on the class path. */
    static final String RESOURCES = "io/rondo/server/admin/";

    /** Where the server is in its life, for {@code /readyz}. */
    public enum State {
        /** Binding ports, installing the player; not serving yet. */
        STARTING,
        /** Serving. */
        READY,
        /** Stopping: streams are being ended. */
        DRAINING;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The addresses and start time {@code /api/v1/info} reports. */
    public record Addresses(String http, String streams) {
    }

    /** {@code GET /api/v1/info}. */
    public record Info(String version, String startedAt, double uptimeSeconds, String state, String http,
                       String streams, List<String> disks, PolicyView policy) {
    }

    /** {@code GET /api/v1/streams}. */
    public record StreamPage(List<StreamStatus> items, String next) {
    }

    /** {@code GET /api/v1/disks/{name}}. */
    public record DiskView(String name, String model, long roundMs, String schedulingPolicy, int admittedStreams,
                           double committedShare, double measuredInflation, double discreteReserve, long rounds,
                           long overruns, long glitches,
                           List<io.rondo.server.observe.RoundView> slack, Queues queues, long ioErrors,
                           DiscreteResponse discreteResponse) {
    }

    /** A disk's queues: D-requests waiting, and requests in the scan list. */
    public record Queues(int discrete, int scan) {
    }

    /** D-response times against the bound, in milliseconds; null where none was answered. */
    public record DiscreteResponse(long count, Double meanMs, Double p95Ms, Double p99Ms, Double maxMs, long boundMs,
                                   long overBound) {
    }

    /** {@code GET /api/v1/disks}. */
    public record DiskList(List<DiskView> items) {
    }

    /** {@code GET /api/v1/admission}. */
    public record AdmissionView(String policy, int admitted, Decisions decisions, List<AdmissionLog.Decision> recent) {
    }

    /** Decisions since the start. */
    public record Decisions(long accepted, Map<String, Long> rejected) {
    }

    /** The {@code hello} event. */
    public record Hello(String version, List<String> disks, long roundMs) {
    }

    private final DiskRuntime disks;
    private final StreamServer streams;
    private final PolicyControl policy;
    private final EventHub events;
    private final RondoMetrics metrics;
    private final boolean metricsPublic;
    private final Clock clock;
    private final Instant startedAt;
    private volatile Addresses addresses = new Addresses(null, null);
    private volatile State state = State.STARTING;
    /** Reads the class path's files and writes the policy file: blocking work, off the admin event loop. */
    private final Executor fileThread = ObjectsResource.idleEndingThread("rondo-admin-files");

    public AdminApi(DiskRuntime disks, StreamServer streams, PolicyControl policy, EventHub events,
                    RondoMetrics metrics, boolean metricsPublic, Clock clock) {
        this.disks = disks;
        this.streams = streams;
        this.policy = policy;
        this.events = events;
        this.metrics = metrics;
        this.metricsPublic = metricsPublic;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    /** The server is serving at these addresses. */
    public void ready(Addresses serving) {
        this.addresses = serving;
        this.state = State.READY;
    }

    /** The server is stopping. */
    public void draining() {
        this.state = State.DRAINING;
    }

    /** The version of this build. */
    public static String version() {
        String version = AdminApi.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }

    /** The {@code hello} event's payload. */
    public static Hello hello(DiskRuntime disks) {
        return new Hello(version(), disks.diskNames(), disks.roundNs() / 1_000_000);
    }

    /** Every route but the objects', which {@link ObjectsResource} adds. */
    public AdminRouter routes(AdminRouter router) {
        return router.add(
            Route.sync("GET", "/healthz", Scope.PUBLIC, request -> ApiReply.ok(Map.of("status", "ok"))),
            Route.sync("GET", "/readyz", Scope.PUBLIC, request -> readyz()),
            Route.sync("GET", "/metrics", metricsPublic ? Scope.PUBLIC : Scope.READ, this::metrics),
            Route.sync("GET", "/admin", Scope.PUBLIC, request -> ApiReply.bytes(301, null, new byte[0])
                .header("Location", "/admin/")),
            Route.of("GET", "/admin/{file+}", Scope.PUBLIC, request -> offLoop(() -> file("dashboard/"
                + request.variable("file"), request.headers().get("If-None-Match")))),
            Route.of("GET", "/api/v1/openapi.yaml", Scope.PUBLIC, request -> offLoop(() -> file("openapi.yaml",
                request.headers().get("If-None-Match")))),
            Route.sync("GET", "/api/v1/info", Scope.READ, request -> ApiReply.ok(info())),
            Route.of("GET", "/api/v1/streams", Scope.READ, this::streamPage),
            Route.of("GET", "/api/v1/streams/{id}", Scope.READ, this::stream),
            Route.sync("DELETE", "/api/v1/streams/{id}", Scope.ADMIN, this::endStream),
            Route.sync("GET", "/api/v1/disks", Scope.READ, request -> ApiReply.ok(new DiskList(
                disks.diskNames().stream().map(this::disk).toList()))),
            Route.sync("GET", "/api/v1/disks/{name}", Scope.READ, request -> ApiReply.ok(disk(known(
                request.variable("name"))))),
            Route.sync("GET", "/api/v1/policy", Scope.READ, this::policy),
            Route.of("PATCH", "/api/v1/policy", Scope.ADMIN, request -> offLoop(() -> patchPolicy(request))),
            Route.sync("GET", "/api/v1/admission", Scope.READ, request -> ApiReply.ok(admission())),
            Route.sync("GET", "/api/v1/events", Scope.READ, request -> ApiReply.eventStream(events::attach)));
    }

    private ApiReply readyz() {
        State now = state;
        if (now != State.READY) {
            throw Problem.notReady(now.label(), now == State.STARTING ? "the server is starting"
                : "the server is stopping: its streams are being ended");
        }
        return ApiReply.ok(Map.of("status", "ready"));
    }

    private ApiReply metrics(ApiRequest request) {
        String accept = request.headers().get("Accept");
        return ApiReply.bytes(200, RondoMetrics.contentType(accept),
            metrics.scrape(accept).getBytes(StandardCharsets.UTF_8));
    }

    Info info() {
        return new Info(version(), startedAt.toString(),
            (clock.millis() - startedAt.toEpochMilli()) / 1000.0, state.label(), addresses.http(), addresses.streams(),
            disks.diskNames(), policy.current());
    }

    private CompletableFuture<ApiReply> streamPage(ApiRequest request) {
        int limit = request.intParam("limit", 50, 1, 500);
        String cursor = request.param("cursor");
        long after;
        try {
            after = cursor == null ? 0 : Long.parseLong(cursor);
        } catch (NumberFormatException e) {
            throw Problem.invalid("cursor", "cursor is the 'next' value of the last page, was '" + cursor + "'");
        }
        String disk = request.param("disk");
        if (disk != null) {
            known(disk);
        }
        String object = request.param("object");
        return streams.streams().thenApply(all -> {
            List<StreamStatus> page = new ArrayList<>();
            String next = null;
            for (StreamStatus stream : all) {
                if (stream.id() <= after || disk != null && !stream.disks().contains(disk)
                    || object != null && !stream.object().equals(object)) {
                    continue;
                }
                if (page.size() == limit) {
                    next = Long.toString(page.get(page.size() - 1).id());
                    break;
                }
                page.add(stream);
            }
            return ApiReply.ok(new StreamPage(page, next));
        });
    }

    private CompletableFuture<ApiReply> stream(ApiRequest request) {
        long id = streamId(request);
        return streams.streams().thenApply(all -> all.stream().filter(stream -> stream.id() == id).findFirst()
            .map(ApiReply::ok).orElseThrow(() -> Problem.notFound("no stream " + id + " is running")));
    }

    private ApiReply endStream(ApiRequest request) {
        long id = streamId(request);
        if (!streams.end(id, "an operator ended the stream")) {
            throw Problem.notFound("no stream " + id + " is running");
        }
        return ApiReply.noContent();
    }

    private static long streamId(ApiRequest request) {
        String text = request.variable("id");
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw Problem.notFound("no stream is numbered '" + text + "': stream ids are whole numbers");
        }
    }

    private String known(String disk) {
        if (!disks.diskNames().contains(disk)) {
            throw Problem.notFound("no disk is named '" + disk + "'; the disks are " + disks.diskNames());
        }
        return disk;
    }

    DiskView disk(String name) {
        DiskWatch watch = disks.watch(name);
        DiskExecutor executor = disks.executor(name);
        AdmissionController admission = streams.admission();
        DiskRuntime.ResponseTimeSummary responses = disks.discreteResponseTimes(name);
        boolean none = responses.count() == 0;
        return new DiskView(name, disks.model(name).toString(), disks.roundNs() / 1_000_000,
            executor.schedulingPolicy().toString(), admission.admittedStreams(name),
            (double) admission.committedNs(name) / disks.roundNs(), admission.inflation(name),
            admission.config().discreteReserve(),
            watch.rounds(), watch.overruns(), watch.deadlineMisses(), watch.lastRounds(),
            new Queues(executor.queuedDiscrete(), executor.scanListSize()), executor.ioErrors(),
            new DiscreteResponse(responses.count(), none ? null : responses.meanMs(), none ? null : responses.p95Ms(),
                none ? null : responses.p99Ms(), none ? null : responses.maxMs(), watch.boundNs() / 1_000_000,
                watch.overBound()));
    }

    /**
     * The policy with its ETag; 304 with no body when the request's If-None-Match names the ETag
     * (RFC 9110 Section 13.1.2): a dashboard polling it costs no body while nothing changed.
     */
    private ApiReply policy(ApiRequest request) {
        PolicyView now;
        String etag;
        synchronized (policy) {
            now = policy.current();
            etag = policy.etag();
        }
        if (ConditionalRequests.noneMatchHolds(request.headers().get("If-None-Match"), etag)) {
            return new ApiReply(304, null, new LinkedHashMap<>(), new byte[0]).header("ETag", etag)
                .header("Cache-Control", "no-cache");
        }
        return ApiReply.ok(now).header("ETag", etag).header("Cache-Control", "no-cache");
    }

    /** Runs {@code work} on {@link #fileThread}: the admin port's event loop never reads or writes a file. */
    private CompletableFuture<ApiReply> offLoop(Callable<ApiReply> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, fileThread);
    }

    private ApiReply patchPolicy(ApiRequest request) {
        String type = request.headers().get("Content-Type");
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/merge-patch+json")) {
            throw Problem.unsupportedMediaType("PATCH /api/v1/policy takes application/merge-patch+json (RFC 7396), "
                + "was " + (type == null ? "no Content-Type" : type));
        }
        PolicyView.Change change = policy.patch(request.headers().get("If-Match"), request.body());
        return ApiReply.ok(change).header("ETag", policy.etag());
    }

    AdmissionView admission() {
        AdmissionLog log = streams.admissionLog();
        return new AdmissionView(streams.admission().config().policy().label(), streams.admission().admittedStreams(),
            new Decisions(log.accepted(), log.rejected()), log.recent());
    }

    /**
     * A file of the dashboard or the API's description, from the class path, with an ETag of its
     * bytes: {@code no-cache}, so a browser asks again before each use and never runs the dashboard
     * of a Rondo it was upgraded from, and 304 while {@code ifNoneMatch} names the ETag.
     */
    static ApiReply file(String path, String ifNoneMatch) throws IOException {
        if (path.endsWith("/") || path.equals("dashboard/")) {
            path = path + "index.html";
        }
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.contains("\\")) {
                throw Problem.notFound("no file at " + path);
            }
        }
        try (InputStream in = AdminApi.class.getClassLoader().getResourceAsStream(RESOURCES + path)) {
            if (in == null) {
                throw Problem.notFound("no file at " + path);
            }
            byte[] bytes = in.readAllBytes();
            String etag = ConditionalRequests.digestTag(bytes);
            if (ConditionalRequests.noneMatchHolds(ifNoneMatch, etag)) {
                return new ApiReply(304, null, new LinkedHashMap<>(), new byte[0]).header("ETag", etag)
                    .header("Cache-Control", "no-cache");
            }
            return ApiReply.bytes(200, contentType(path), bytes).header("Cache-Control", "no-cache")
                .header("ETag", etag);
        }
    }

    private static String contentType(String path) {
        Map<String, String> types = new LinkedHashMap<>();
        types.put(".html", "text/html; charset=utf-8");
        types.put(".js", "text/javascript; charset=utf-8");
        types.put(".mjs", "text/javascript; charset=utf-8");
        types.put(".css", "text/css; charset=utf-8");
        types.put(".svg", "image/svg+xml");
        types.put(".json", "application/json");
        types.put(".yaml", "application/yaml");
        types.put(".txt", "text/plain; charset=utf-8");
        for (Map.Entry<String, String> type : types.entrySet()) {
            if (path.endsWith(type.getKey())) {
                return type.getValue();
            }
        }
        return "application/octet-stream";
    }
}
