package io.rondo.server.admin;

import io.rondo.server.observe.EventHub;
import io.rondo.server.runtime.DiskRuntime;

import java.util.List;

/**
 * The event stream, {@code /api/v1/events}: Server-Sent Events of the rounds and the streams from
 * the {@link EventHub}, which first sends each listener a {@code hello}.
 */
final class EventsResource {

    /** The {@code hello} event. */
    record Hello(String version, List<String> disks, long roundMs) {
    }

    private final EventHub events;

    EventsResource(EventHub events) {
        this.events = events;
    }

    /** The {@code hello} event's payload. */
    static Hello hello(DiskRuntime disks) {
        return new Hello(AdminApi.version(), disks.diskNames(), disks.roundNs() / 1_000_000);
    }

    /** Adds {@code GET /api/v1/events}. */
    void routes(AdminRouter router) {
        router.add(Route.sync("GET", "/api/v1/events", Scope.READ, request -> ApiReply.eventStream(events::attach)));
    }
}
