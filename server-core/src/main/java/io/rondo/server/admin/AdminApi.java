package io.rondo.server.admin;

import io.rondo.server.observe.EventHub;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;

import java.time.Clock;

/**
 * The admin port's resources but the objects' (docs/admin-api.md; {@code GET /api/v1/openapi.yaml}
 * describes each), built from what they read: the server's info and health ({@link ServerResource}),
 * its metrics, the dashboard's files, its streams, its disks' rounds, its policy, its admission
 * decisions and its events, one class each. {@link ObjectsResource} adds the library's objects.
 */
public final class AdminApi {

    /** The addresses {@code /api/v1/info} reports. */
    public record Addresses(String http, String streams) {
    }

    private final ServerResource server;
    private final MetricsResource metrics;
    private final StreamsResource streams;
    private final DisksResource disks;
    private final PolicyResource policy;
    private final AdmissionResource admission;
    private final EventsResource events;
    /**
     * Reads the class path's files and writes the policy file: blocking work, off the admin event
     * loop, at most {@link #FILE_WORK_WAITING} waiting.
     */
    private final AdminWorker files = new AdminWorker("rondo-admin-files", FILE_WORK_WAITING);

    /** The most dashboard reads and policy changes that wait for the file thread; more get a 503 busy. */
    static final int FILE_WORK_WAITING = 64;

    /**
     * @param disks         the disks, their rounds and watches
     * @param streams       the stream port: its streams and admission
     * @param policy        the policy's control
     * @param events        the event stream's hub
     * @param metrics       the metrics registry
     * @param metricsPublic whether {@code /metrics} needs no token
     * @param clock         the wall clock of the start time and the uptime
     */
    public AdminApi(DiskRuntime disks, StreamServer streams, PolicyControl policy, EventHub events,
                    RondoMetrics metrics, boolean metricsPublic, Clock clock) {
        this.server = new ServerResource(disks, policy, clock);
        this.metrics = new MetricsResource(metrics, metricsPublic);
        this.streams = new StreamsResource(disks, streams);
        this.disks = new DisksResource(disks, streams.admission());
        this.policy = new PolicyResource(policy, files);
        this.admission = new AdmissionResource(streams);
        this.events = new EventsResource(events);
    }

    /** The server is serving at these addresses. */
    public void ready(Addresses serving) {
        server.ready(serving);
    }

    /** The server is stopping. */
    public void draining() {
        server.draining();
    }

    /** The version of this build. */
    public static String version() {
        String version = AdminApi.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }

    /** The {@code hello} event's payload, for the {@link EventHub} of {@code disks}. */
    public static Object hello(DiskRuntime disks) {
        return EventsResource.hello(disks);
    }

    /** Every route but the objects', which {@link ObjectsResource} adds. */
    public AdminRouter routes(AdminRouter router) {
        server.routes(router);
        metrics.routes(router);
        DashboardResource.routes(router, files);
        streams.routes(router);
        disks.routes(router);
        policy.routes(router);
        admission.routes(router);
        events.routes(router);
        return router;
    }
}
