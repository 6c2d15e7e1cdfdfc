package io.rondo.server.admin;

import io.rondo.server.observe.ResponseTimes;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.server.observe.DiskWatch;
import io.rondo.server.observe.RoundView;
import io.rondo.server.runtime.DiskRuntime;

import java.util.List;

/**
 * The disks, {@code /api/v1/disks}: each disk's model, policy, admitted share, the slack of its
 * last rounds (papers/000 Figure 2), its queues and its D-response times against their bound.
 */
final class DisksResource {

    /** {@code GET /api/v1/disks/{name}}. */
    record DiskView(String name, String model, long roundMs, String schedulingPolicy, int admittedStreams,
                    double committedShare, double measuredInflation, double discreteReserve, long rounds,
                    long overruns, long glitches, List<RoundView> slack, Queues queues, long ioErrors,
                    DiscreteResponse discreteResponse) {
    }

    /** A disk's queues: D-requests waiting, and requests in the scan list. */
    record Queues(int discrete, int scan) {
    }

    /** D-response times against the bound, in milliseconds; null where none was answered. */
    record DiscreteResponse(long count, Double meanMs, Double p95Ms, Double p99Ms, Double maxMs, long boundMs,
                            long overBound) {
    }

    /** {@code GET /api/v1/disks}. */
    record DiskList(List<DiskView> items) {
    }

    private final DiskRuntime disks;
    private final AdmissionController admission;

    DisksResource(DiskRuntime disks, AdmissionController admission) {
        this.disks = disks;
        this.admission = admission;
    }

    /** Adds the disks' routes. */
    void routes(AdminRouter router) {
        router.add(
            Route.sync("GET", "/api/v1/disks", Scope.READ, request -> ApiReply.ok(new DiskList(
                disks.diskNames().stream().map(this::disk).toList()))),
            Route.sync("GET", "/api/v1/disks/{name}", Scope.READ, request -> ApiReply.ok(disk(known(disks,
                request.variable("name"))))));
    }

    /** {@code disk}, if {@code disks} has a disk of that name; else 404. */
    static String known(DiskRuntime disks, String disk) {
        if (!disks.diskNames().contains(disk)) {
            throw Problem.notFound("no disk is named '" + disk + "'; the disks are " + disks.diskNames());
        }
        return disk;
    }

    private DiskView disk(String name) {
        DiskWatch watch = disks.watch(name);
        DiskExecutor executor = disks.executor(name);
        ResponseTimes responses = disks.discreteResponseTimes(name);
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
}
