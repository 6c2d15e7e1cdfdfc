package io.rondo.server.admin;

import io.rondo.server.observe.RondoMetrics;

import java.nio.charset.StandardCharsets;

/**
 * {@code /metrics}: the Prometheus scrape, in the exposition format the {@code Accept} header asks
 * for; public only when {@code admin.metricsPublic} says so, else it needs the read token.
 */
final class MetricsResource {

    private final RondoMetrics metrics;
    private final boolean metricsPublic;

    MetricsResource(RondoMetrics metrics, boolean metricsPublic) {
        this.metrics = metrics;
        this.metricsPublic = metricsPublic;
    }

    /** Adds {@code GET /metrics}. */
    void routes(AdminRouter router) {
        router.add(Route.sync("GET", "/metrics", metricsPublic ? Scope.PUBLIC : Scope.READ, this::scrape));
    }

    private ApiReply scrape(ApiRequest request) {
        String accept = request.headers().get("Accept");
        return ApiReply.bytes(200, RondoMetrics.contentType(accept),
            metrics.scrape(accept).getBytes(StandardCharsets.UTF_8));
    }
}
