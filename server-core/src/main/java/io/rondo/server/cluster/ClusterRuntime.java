package io.rondo.server.cluster;

import io.rondo.server.stream.Elsewhere;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A node's part in its cluster, started and closed with the server: the calls to other nodes, the
 * replication of uploads, where streams it cannot serve go, and the {@code rondo-cluster} thread
 * that, every {@code cluster.refresh}, resolves the cluster's DNS name again and reads the other
 * nodes' listings and agents. Where there is no
 * cluster it does nothing and starts no thread.
 */
public final class ClusterRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterRuntime.class);

    private final Cluster cluster;
    private final Replication replication;
    private final PeerLibraries peers;
    private final PeerHeadroom headroom;
    private final ScheduledExecutorService thread;

    private ClusterRuntime(Cluster cluster, Replication replication, PeerLibraries peers, PeerHeadroom headroom,
                           ScheduledExecutorService thread) {
        this.cluster = cluster;
        this.replication = replication;
        this.peers = peers;
        this.headroom = headroom;
        this.thread = thread;
    }

    /**
     * Starts node {@code cluster.self()}'s part, or nothing if it is alone.
     *
     * @param token the admin token the nodes share
     * @param clock the clock of the copies' rate
     */
    public static ClusterRuntime start(Cluster cluster, String token, NanoClock clock) {
        if (!cluster.enabled() || cluster.selfName().isEmpty()) {
            return new ClusterRuntime(cluster, Replication.none(), null, null, null);
        }
        NodeCopies copies = new NodeCopies(token, new Throttle(cluster.settings().copyBytesPerSecond(), clock));
        PeerLibraries peers = new PeerLibraries(cluster, copies);
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "rondo-cluster");
            t.setDaemon(true);
            return t;
        });
        ClusterRuntime runtime = new ClusterRuntime(cluster, new Replication(cluster, copies), peers,
            new PeerHeadroom(cluster), thread);
        thread.scheduleWithFixedDelay(runtime::refresh, 0, cluster.settings().refreshMs(), TimeUnit.MILLISECONDS);
        return runtime;
    }

    private void refresh() {
        try {
            cluster.refresh();
        } catch (IllegalArgumentException e) {
            LOG.warn("cluster: {}; the nodes known stay", e.getMessage());
        }
        try {
            peers.refresh();
            headroom.refresh();
        } catch (RuntimeException e) {
            LOG.warn("cluster: reading the other nodes failed", e);
        }
    }

    /** The cluster. */
    public Cluster cluster() {
        return cluster;
    }

    /** Uploads' copies to their owners; {@link Replication#none()} where there is no cluster. */
    public Replication replication() {
        return replication;
    }

    /** Where this node sends the streams it cannot serve; {@link Elsewhere#NONE} where there is no cluster. */
    public Elsewhere elsewhere() {
        return peers == null ? Elsewhere.NONE : new ClusterElsewhere(cluster, peers, headroom);
    }

    /** What the other nodes hold, or null where there is no cluster. */
    public PeerLibraries peers() {
        return peers;
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
