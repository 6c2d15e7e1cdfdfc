package io.rondo.server.admin;

import io.rondo.server.cluster.agent.AgentReport;
import io.rondo.server.stream.Drain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server as a node behind a balancer, {@code /api/v1/server}: whether it takes new streams and
 * the line its agent gives HAProxy; {@code POST /api/v1/server/drain} drains it (new streams are
 * refused with a retry-after and the agent says {@code drain}; the streams it plays go on, HTTP is
 * served) and {@code DELETE /api/v1/server/drain} lets it take streams again. A server that stops
 * drains whatever an operator says.
 */
public final class DrainResource {

    private static final Logger LOG = LoggerFactory.getLogger(DrainResource.class);

    /**
     * {@code GET /api/v1/server}, and the answer to a drain or its end.
     *
     * @param draining          whether the server refuses new streams
     * @param drainedByOperator whether an operator drained it
     * @param stopping          whether it is stopping
     * @param reason            why it refuses new streams, or null
     * @param agent             the line its agent answers HAProxy's check with now
     */
    record ServerView(boolean draining, boolean drainedByOperator, boolean stopping, String reason, String agent) {
    }

    private final Drain drain;
    private final AgentReport agent;

    /**
     * @param drain the stream port's drain
     * @param agent the node's agent line
     */
    public DrainResource(Drain drain, AgentReport agent) {
        this.drain = drain;
        this.agent = agent;
    }

    /** Adds {@code GET /api/v1/server} and {@code POST} and {@code DELETE /api/v1/server/drain}. */
    public AdminRouter routes(AdminRouter router) {
        return router.add(
            Route.sync("GET", "/api/v1/server", Scope.READ, request -> ApiReply.ok(view())),
            Route.sync("POST", "/api/v1/server/drain", Scope.ADMIN, request -> drained(true)),
            Route.sync("DELETE", "/api/v1/server/drain", Scope.ADMIN, request -> drained(false)));
    }

    private ApiReply drained(boolean drained) {
        if (drained != drain.byOperator()) {
            drain.byOperator(drained);
            LOG.info(drained ? "an operator drained the server: new streams are refused, those playing go on"
                : "an operator ended the drain: the server takes new streams again");
        }
        return ApiReply.ok(view());
    }

    private ServerView view() {
        return new ServerView(drain.draining(), drain.byOperator(), drain.isStopping(), drain.reason(),
            agent.line().format());
    }
}
