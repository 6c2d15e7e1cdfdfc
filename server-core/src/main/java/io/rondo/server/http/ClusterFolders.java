package io.rondo.server.http;

import io.rondo.content.ingest.Directory;
import io.rondo.server.cluster.NodeCopies;
import io.rondo.server.cluster.PeerLibraries;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A folder's page on a node of a cluster shows the whole cluster's library: this node's entries
 * and the objects the other nodes listed at their last refresh ({@link PeerLibraries}), each
 * object once, counted once in its folders' totals. A request for an object another node holds
 * but this one does not (yet) is answered 503 with a Retry-After, which HAProxy retries on the
 * object's other owner; a rebalance after a node joined leaves no such request unanswered.
 */
final class ClusterFolders {

    private final Directory directory;
    private final PeerLibraries peers;

    /** @param peers what the other nodes hold, or null where this server is alone */
    ClusterFolders(Directory directory, PeerLibraries peers) {
        this.directory = directory;
        this.peers = peers;
    }

    /** The rows of {@code folder}'s page: this node's entries merged with the other nodes'. */
    List<FolderPage.Row> rows(String folder) {
        List<Directory.Entry> local = directory.list(folder);
        if (peers == null) {
            return local.stream().map(FolderPage.Row::of).toList();
        }
        Map<String, FolderPage.Row> folders = new TreeMap<>();
        Map<String, FolderPage.Row> objects = new TreeMap<>();
        for (Directory.Entry entry : local) {
            (entry.folder() ? folders : objects).put(entry.name(), FolderPage.Row.of(entry));
        }
        for (PeerLibraries.Held held : peers.withPrefix(folder)) {
            NodeCopies.Listed object = held.object();
            if (directory.find(object.name()).isPresent()) {
                continue;
            }
            String rest = object.name().substring(folder.length());
            int slash = rest.indexOf('/');
            if (slash < 0) {
                objects.put(object.name(), new FolderPage.Row(object.name(), false, object.size(), 1, type(object),
                    object.continuous(), modifiedMs(object)));
            } else {
                String name = folder + rest.substring(0, slash + 1);
                FolderPage.Row sum = folders.get(name);
                folders.put(name, new FolderPage.Row(name, true, object.size() + (sum == null ? 0 : sum.size()),
                    1 + (sum == null ? 0 : sum.objects()), null, false, -1));
            }
        }
        List<FolderPage.Row> rows = new ArrayList<>(folders.values());
        rows.addAll(objects.values());
        return rows;
    }

    /** The other nodes that hold {@code name}, where this node does not; empty where none does or there are none. */
    Optional<List<String>> heldElsewhere(String name) {
        if (peers == null) {
            return Optional.empty();
        }
        return peers.withPrefix(name).stream().filter(held -> held.object().name().equals(name)).findFirst()
            .map(PeerLibraries.Held::nodes);
    }

    private static String type(NodeCopies.Listed object) {
        return object.continuous() ? String.format(Locale.ROOT, "%s, %.1f s", object.type(),
            object.durationSeconds()) : object.type();
    }

    private static long modifiedMs(NodeCopies.Listed object) {
        try {
            return object.modified() == null ? -1 : Instant.parse(object.modified()).toEpochMilli();
        } catch (DateTimeParseException e) {
            return -1;
        }
    }
}
