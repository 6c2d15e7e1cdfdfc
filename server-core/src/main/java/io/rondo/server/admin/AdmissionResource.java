package io.rondo.server.admin;

import io.rondo.server.observe.AdmissionLog;
import io.rondo.server.stream.StreamServer;

import java.util.List;
import java.util.Map;

/**
 * Admission control's decisions, {@code /api/v1/admission}: the policy, the streams admitted, the
 * decisions since the start by result and reason, and the latest ones.
 */
final class AdmissionResource {

    /** {@code GET /api/v1/admission}. */
    record AdmissionView(String policy, int admitted, Decisions decisions, List<AdmissionLog.Decision> recent) {
    }

    /** Decisions since the start. */
    record Decisions(long accepted, Map<String, Long> rejected) {
    }

    private final StreamServer streams;

    AdmissionResource(StreamServer streams) {
        this.streams = streams;
    }

    /** Adds {@code GET /api/v1/admission}. */
    void routes(AdminRouter router) {
        router.add(Route.sync("GET", "/api/v1/admission", Scope.READ, request -> ApiReply.ok(admission())));
    }

    private AdmissionView admission() {
        AdmissionLog log = streams.admissionLog();
        return new AdmissionView(streams.admission().config().policy().label(), streams.admission().admittedStreams(),
            new Decisions(log.accepted(), log.rejected()), log.recent());
    }
}
