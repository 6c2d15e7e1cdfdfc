package io.rondo.server;

import io.micrometer.core.instrument.Tags;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.cycle.Step;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.server.cluster.agent.AgentReport;
import io.rondo.server.live.LiveTotals;
import io.rondo.server.observe.DiskWatch;
import io.rondo.server.observe.EventHub;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.Drain;
import io.rondo.server.stream.HlsSessions;
import io.rondo.server.stream.StreamServer;

import java.util.Locale;

/**
 * Connects a running server to its metrics and its event stream: each disk's rounds, deadline
 * misses, D-responses, queues and IO errors; the streams per disk and admission's decisions; the
 * buffer pool. Meters that only read state (gauges, function counters) cost nothing until scraped.
 */
public final class ServerMetrics {

    private ServerMetrics() {
    }

    /** Binds the disks and the streams to {@code metrics} and {@code events}. */
    public static void bind(RondoMetrics metrics, EventHub events, DiskRuntime disks, StreamServer streams,
                            long responseBoundMs) {
        AdmissionController admission = streams.admission();
        for (String name : disks.diskNames()) {
            DiskWatch watch = disks.watch(name);
            metrics.bindDisk(watch, disks.roundNs(), responseBoundMs * 1_000_000);
            watch.publishTo(events);
            DiskExecutor executor = disks.executor(name);
            Tags disk = Tags.of("disk", name);
            metrics.functionCounter("rondo.io.errors", "Disk reads that failed (device errors, no buffer memory)", disk,
                executor, DiskExecutor::ioErrors);
            metrics.gauge("rondo.disk.queue.discrete", "D-requests waiting for the disk", disk, executor,
                DiskExecutor::queuedDiscrete);
            metrics.gauge("rondo.streams.active", "Admitted streams that read from the disk", disk, admission,
                a -> a.admittedStreams(name));
            metrics.gauge("rondo.disk.committed.ratio", "The share of the disk's round its admitted streams take",
                disk, admission, a -> (double) a.committedNs(name) / disks.roundNs());
            metrics.gauge("rondo.disk.measured.inflation", "By how much the disk's last rounds took longer than its "
                + "model says (at least 1); admission charges new streams by it", disk, admission,
                a -> a.inflation(name));
        }
        metrics.gauge("rondo.stream.delivery.slack.least.seconds", "The least time before their deadlines the "
            + "streams' fragments left with in the last rounds (NaN if none left); under half a round, admission "
            + "refuses new streams", Tags.empty(), admission, a -> {
                long leastNs = a.leastDeliverySlackNs();
                return leastNs == Long.MAX_VALUE ? Double.NaN : leastNs / 1e9;
            });
        metrics.gauge("rondo.hls.active", "HLS playbacks being served (each is also a stream)",
            Tags.empty(), streams.hls(), HlsSessions::active);
        metrics.functionCounter("rondo.hls.parts", "Part and segment GETs of HLS playbacks, by where their bytes came "
            + "from: memory (read ahead in the rounds) or disk (a plain ranged GET, a D-request)",
            Tags.of("source", "memory"), streams.hls(), HlsSessions::answeredFromMemory);
        metrics.functionCounter("rondo.hls.parts", "Part and segment GETs of HLS playbacks, by where their bytes came "
            + "from: memory (read ahead in the rounds) or disk (a plain ranged GET, a D-request)",
            Tags.of("source", "disk"), streams.hls(), HlsSessions::answeredFromDisk);
        metrics.functionCounter("rondo.stream.glitches", "Fragments not on the wire by their deadline", Tags.empty(),
            streams, StreamServer::glitches);
        metrics.functionCounter("rondo.stream.sent.bytes", "Fragment bytes the streams sent", Tags.empty(), streams,
            StreamServer::sentBytes);
        BufferPool buffers = disks.buffers();
        metrics.gauge("rondo.buffers.used.bytes", "Read buffer memory in use", Tags.empty(), buffers,
            BufferPool::inUseBytes);
        metrics.gauge("rondo.buffers.ceiling.bytes", "The read buffers' ceiling (buffers.ceiling)", Tags.empty(),
            buffers, BufferPool::ceilingBytes);
        for (BufferMode mode : BufferMode.values()) {
            metrics.gauge("rondo.stream.buffer.mode", "Admitted streams whose buffers are reserved so "
                + "(papers/004 Section 4: dblbuf, clbuf, clbufrate)", Tags.of("mode", mode.label()), streams,
                s -> s.streamsIn(mode));
            if (mode.sharedAccount() != null) {
                metrics.gauge("rondo.buffers.shared.bytes", "The size of a shared buffer account: the most its "
                    + "streams can hold at once", Tags.of("account", mode.sharedAccount()), buffers,
                    b -> b.shareBytes(mode.sharedAccount()));
            }
        }
        metrics.functionCounter("rondo.buffers.shared.overdrafts", "Reads a full shared buffer account lent past "
            + "its size", Tags.empty(), buffers, BufferPool::sharedOverdrafts);
        metrics.functionCounter("rondo.stream.guard.ended", "Streams ended for taking their data slower than their "
            + "client declared", Tags.empty(), streams, StreamServer::guardEndedStreams);
        streams.admissionLog().observe(metrics, events);
        bindCycle(metrics, streams);
    }

    /** Binds stream combination (papers/003): the time cycle, the streams combined, and each operation made. */
    private static void bindCycle(RondoMetrics metrics, StreamServer streams) {
        metrics.gauge("rondo.cycle.seconds", "The time cycle: the rounds between a stream's reads, as a length",
            Tags.empty(), streams, s -> s.cycleNs() / 1e9);
        metrics.gauge("rondo.streams.combined", "Streams read in combined pairs (one IO of two cycles' data every "
            + "other cycle)", Tags.empty(), streams, StreamServer::combinedStreams);
        for (Step.Operation operation : Step.Operation.values()) {
            if (operation != Step.Operation.NONE) {
                metrics.functionCounter("rondo.cycle.operations", "Stream combination's reschedules, by operation",
                    Tags.of("operation", operation.name().toLowerCase(Locale.ROOT)), streams,
                    s -> s.cycleOperations().get(operation));
            }
        }
    }

    /** Binds what the recordings do: recordings active, write rounds on time and late, bytes written and received. */
    public static void bindLive(RondoMetrics metrics, LiveTotals totals) {
        metrics.gauge("rondo.live.recordings", "Live recordings being written", Tags.empty(), totals,
            LiveTotals::active);
        metrics.functionCounter("rondo.live.write.rounds", "Recordings' write rounds forced to disk in their round",
            Tags.of("outcome", "on_time"), totals, LiveTotals::writeRounds);
        metrics.functionCounter("rondo.live.write.rounds", "Recordings' write rounds the disk dropped at their round's "
            + "end, written again the round after", Tags.of("outcome", "late"), totals, LiveTotals::lateWriteRounds);
        metrics.functionCounter("rondo.live.bytes.written", "Bytes the recordings wrote, block padding included",
            Tags.empty(), totals, LiveTotals::bytesWritten);
        metrics.functionCounter("rondo.live.bytes.received", "Bytes the recordings' publishers sent", Tags.empty(),
            totals, LiveTotals::bytesReceived);
    }

    /** Binds what the node tells its balancer: the agent's weight, and whether it is draining. */
    public static void bindAgent(RondoMetrics metrics, AgentReport agent, Drain drain) {
        metrics.gauge("rondo.agent.weight", "The weight the agent gives HAProxy, in percent: the free share of the "
            + "node's most committed resource (0 when full)", Tags.empty(), agent, a -> a.line().weightPercent());
        metrics.gauge("rondo.draining", "1 while the node refuses new streams (drained by an operator, or stopping), "
            + "else 0", Tags.empty(), drain, d -> d.draining() ? 1 : 0);
    }
}
