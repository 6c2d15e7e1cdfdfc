package io.rondo.server.cluster.agent;

import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionController;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * A node's headroom as its agent tells HAProxy (papers/004 Section 6: each node admits its own
 * streams on its own disks; the balancer should send new ones where there is room). Read from
 * admission control's state at each check:
 *
 * <ul>
 *   <li>the <em>weight</em> is the free share of the node's most committed resource: of each
 *   disk's round, the part its admitted streams take (as modelled, times what its measured rounds
 *   add) against the part streams may take, and the buffer memory and the network the streams are
 *   charged against their ceilings; at least 1% while the node can admit another stream;</li>
 *   <li>{@code maxconn} is the streams admitted plus how many more of their average charge fit on
 *   the most committed resource; unsaid while no stream is admitted (there is no average yet);</li>
 *   <li>{@code drain} when no further average stream fits (full, weight 0%), when an operator drained
 *   the node, or while it stops; {@code ready} otherwise;</li>
 *   <li>{@code down} when a disk fails ({@link DiskHealth}), {@code up} otherwise.</li>
 * </ul>
 *
 * The words are all written at every check: HAProxy keeps what a line does not say, and only the
 * agent undoes what it set. Thread-safe: admission's state is an immutable snapshot.
 */
public final class AgentReport {

    private final AdmissionController admission;
    private final DiskHealth disks;
    private final Supplier<String> drained;

    /**
     * @param admission the node's admission control
     * @param disks     its disks' health; its disks are those admission charges
     * @param drained   why the node takes no new stream (an operator's drain, a stop), or null while it does
     */
    public AgentReport(AdmissionController admission, DiskHealth disks, Supplier<String> drained) {
        this.admission = admission;
        this.disks = disks;
        this.drained = drained;
    }

    /** The line for the agent check now. */
    public AgentLine line() {
        Headroom room = headroom();
        String failure = disks.failure();
        String drainedWhy = drained.get();
        boolean full = room.full();
        int weight = full ? 0 : Math.max(1, (int) Math.floor(100 * (1 - room.share)));
        String reason = failure != null ? failure : drainedWhy != null ? drainedWhy
            : full ? "full: no room for another stream (" + room.describe() + ")" : null;
        int maxconn = room.more < 0 ? AgentLine.UNSAID
            : (int) Math.min(Integer.MAX_VALUE, admission.admittedStreams() + room.more);
        return new AgentLine(failure != null ? AgentLine.Health.DOWN : AgentLine.Health.UP,
            drainedWhy != null || full ? AgentLine.Admin.DRAIN : AgentLine.Admin.READY, weight, maxconn, reason);
    }

    /**
     * The most committed resource: its share in use, its name, and how many more average streams
     * it takes (-1: unknown, no stream being admitted).
     */
    private record Headroom(double share, String resource, long more) {

        boolean full() {
            return share >= 1 || more == 0;
        }

        String describe() {
            return String.format(Locale.ROOT, "%s %.0f%% committed", resource, 100 * share);
        }

        /** The fuller of this and a resource of {@code used} out of {@code capacity}, charged by {@code streams}. */
        Headroom with(String name, double used, double capacity, int streams) {
            double part = capacity <= 0 ? 1 : used / capacity;
            long fit = streams == 0 || used <= 0 ? -1
                : (long) Math.max(0, Math.floor((capacity - used) / (used / streams)));
            long least = more < 0 ? fit : fit < 0 ? more : Math.min(more, fit);
            return part > share ? new Headroom(part, name, least) : new Headroom(share, resource, least);
        }
    }

    private Headroom headroom() {
        AdmissionConfig config = admission.config();
        Headroom room = new Headroom(0, "nothing", -1);
        for (String disk : disks.diskNames()) {
            double inflation = admission.inflation(disk);
            room = room.with("disk " + disk + "'s round", admission.committedNs(disk) * inflation,
                config.continuousNs(), admission.admittedStreams(disk));
        }
        int streams = admission.admittedStreams();
        room = room.with("the buffer memory", admission.bufferBytesInUse(), config.bufferCeilingBytes(), streams);
        if (config.networkLimited()) {
            room = room.with("the network", admission.networkBitsPerSecondInUse(), config.networkBitsPerSecond(),
                streams);
        }
        return room;
    }
}
