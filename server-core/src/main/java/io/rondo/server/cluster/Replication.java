package io.rondo.server.cluster;

import io.rondo.server.config.ClusterSettings.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An object uploaded at any node ends on its owners (docs/cluster.md): the node that took the
 * upload stores it, sends the uploaded file to each other owner as a copy
 * ({@link NodeCopies#put}), and lets its own copy go if it is not an owner itself. An owner that
 * cannot be reached is named in the answer; {@code rondo cluster rebalance} copies to it later.
 * A delete at any node removes the other owners' copies too.
 */
public final class Replication {

    private static final Logger LOG = LoggerFactory.getLogger(Replication.class);

    /** Where an upload went: the nodes that hold it now, the owners that could not take it, and why. */
    public record Outcome(List<String> holders, List<String> missing, boolean keptHere) {
    }

    private final Cluster cluster;
    private final NodeCopies copies;

    /**
     * @param cluster the cluster's nodes
     * @param copies  the calls to other nodes, or null where there is no cluster
     */
    public Replication(Cluster cluster, NodeCopies copies) {
        this.cluster = cluster;
        this.copies = copies;
    }

    /** No cluster: an upload stays where it was made. */
    public static Replication none() {
        return new Replication(Cluster.single(), null);
    }

    /** Whether uploads and deletes here reach other nodes. */
    public boolean enabled() {
        return cluster.enabled() && copies != null && cluster.selfName().isPresent();
    }

    /**
     * Sends the uploaded {@code file}, just stored here as {@code name}, to the object's other owners.
     * Runs on the upload thread, so the upload's answer says where the object is.
     *
     * @param kind    {@code discrete} or {@code continuous}, as stored here
     * @param bitRate the bit rate the upload declared, or 0
     */
    public Outcome replicate(String name, String kind, long bitRate, Path file) {
        String self = cluster.selfName().orElseThrow();
        List<String> holders = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        boolean ownedHere = false;
        for (Node owner : cluster.owners(name)) {
            if (owner.name().equals(self)) {
                ownedHere = true;
                holders.add(self);
                continue;
            }
            try {
                copies.put(owner, name, kind, bitRate, () -> open(file));
                holders.add(owner.name());
            } catch (IOException | UncheckedIOException e) {
                LOG.warn("cluster: {} is not copied to {} ({}); rondo cluster rebalance copies it later", name,
                    owner.name(), e.getMessage());
                missing.add(owner.name());
            }
        }
        boolean keptHere = ownedHere || holders.isEmpty();
        if (keptHere && !ownedHere) {
            holders.add(self);
        }
        return new Outcome(holders, missing, keptHere);
    }

    /**
     * Removes {@code name} from every other node that may hold a copy: its owners and, where a
     * rebalance has not run yet, any other node.
     *
     * @return the nodes that could not be reached, whose copies remain
     */
    public List<String> removeElsewhere(String name) {
        List<String> unreached = new ArrayList<>();
        for (Node peer : cluster.peers()) {
            try {
                copies.remove(peer, name);
            } catch (IOException e) {
                LOG.warn("cluster: {} could not be removed from {} ({})", name, peer.name(), e.getMessage());
                unreached.add(peer.name());
            }
        }
        return unreached;
    }

    private static InputStream open(Path file) {
        try {
            return Files.newInputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
