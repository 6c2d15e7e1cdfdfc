package io.rondo.server.cluster;

import io.rondo.server.config.ClusterSettings.Node;
import io.rondo.server.stream.Elsewhere;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where a node sends an OPEN it cannot serve (the stream protocol's REDIRECT): for an object it does
 * not hold, to a node that does, its owners first, the one with most headroom; for an object it
 * holds but has no room for, to another holder whose agent last said it has room, or nowhere (the
 * client is refused with a retry-after). A node the listings do not yet show holding an object
 * (an upload younger than {@code cluster.refresh}) is sent to the object's owners, unless this node
 * is one of them: so a redirect never comes back.
 */
public final class ClusterElsewhere implements Elsewhere {

    private final Cluster cluster;
    private final PeerLibraries libraries;
    private final PeerHeadroom headroom;

    /**
     * @param cluster   the nodes and the placement
     * @param libraries what the other nodes hold
     * @param headroom  what their agents say
     */
    public ClusterElsewhere(Cluster cluster, PeerLibraries libraries, PeerHeadroom headroom) {
        this.cluster = cluster;
        this.libraries = libraries;
        this.headroom = headroom;
    }

    @Override
    public Optional<Target> find(String object, boolean full) {
        String self = cluster.selfName().orElse("");
        List<String> holders = libraries.withPrefix(object).stream()
            .filter(held -> held.object().name().equals(object)).findFirst()
            .map(PeerLibraries.Held::nodes).orElse(List.of());
        List<Node> candidates = new ArrayList<>();
        for (Node owner : cluster.owners(object)) {
            if (!owner.name().equals(self) && (holders.contains(owner.name())
                || holders.isEmpty() && !full && !cluster.holds(object))) {
                candidates.add(owner);
            }
        }
        for (String holder : holders) {
            cluster.node(holder).filter(node -> !candidates.contains(node)).ifPresent(candidates::add);
        }
        Optional<Node> roomiest = candidates.stream().filter(node -> headroom.room(node.name()) > 0)
            .max(Comparator.comparingInt(node -> headroom.room(node.name())));
        Optional<Node> chosen = full || roomiest.isPresent() ? roomiest : candidates.stream().findFirst();
        return chosen.map(node -> new Target(node.name(), node.host(), node.ports().stream(), node.ports().http()));
    }
}
