package io.rondo.server.admin;

import io.rondo.server.runtime.DiskRuntime;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server itself on the admin port: {@code /healthz} (the process answers), {@code /readyz}
 * (it serves: 503 while starting or draining) and {@code /api/v1/info} (its version, addresses,
 * uptime by the clock it is given, disks and policy).
 */
final class ServerResource {

    /** Where the server is in its life, for {@code /readyz}. */
    enum State {
        /** Binding ports, installing the player; not serving yet. */
        STARTING,
        /** Serving. */
        READY,
        /** Stopping: streams are being ended. */
        DRAINING;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code GET /api/v1/info}. */
    record Info(String version, String startedAt, double uptimeSeconds, String state, String http,
                String streams, List<String> disks, PolicyView policy) {
    }

    private final DiskRuntime disks;
    private final PolicyControl policy;
    private final Clock clock;
    private final Instant startedAt;
    private volatile AdminApi.Addresses addresses = new AdminApi.Addresses(null, null);
    private volatile State state = State.STARTING;

    ServerResource(DiskRuntime disks, PolicyControl policy, Clock clock) {
        this.disks = disks;
        this.policy = policy;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    /** The server is serving at these addresses. */
    void ready(AdminApi.Addresses serving) {
        this.addresses = serving;
        this.state = State.READY;
    }

    /** The server is stopping. */
    void draining() {
        this.state = State.DRAINING;
    }

    /** Adds {@code /healthz}, {@code /readyz} and {@code /api/v1/info}. */
    void routes(AdminRouter router) {
        router.add(
            Route.sync("GET", "/healthz", Scope.PUBLIC, request -> ApiReply.ok(Map.of("status", "ok"))),
            Route.sync("GET", "/readyz", Scope.PUBLIC, request -> readyz()),
            Route.sync("GET", "/api/v1/info", Scope.READ, request -> ApiReply.ok(info())));
    }

    private ApiReply readyz() {
        State now = state;
        if (now != State.READY) {
            throw Problem.notReady(now.label(), now == State.STARTING ? "the server is starting"
                : "the server is stopping: its streams are being ended");
        }
        return ApiReply.ok(Map.of("status", "ready"));
    }

    private Info info() {
        return new Info(AdminApi.version(), startedAt.toString(),
            (clock.millis() - startedAt.toEpochMilli()) / 1000.0, state.label(), addresses.http(), addresses.streams(),
            disks.diskNames(), policy.current());
    }
}
