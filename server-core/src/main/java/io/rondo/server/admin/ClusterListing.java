package io.rondo.server.admin;

import io.rondo.content.model.MediaObject;
import io.rondo.server.cluster.PeerLibraries;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A page of {@code GET /api/v1/objects} on a node of a cluster: this node's objects and those the
 * other nodes listed at their last refresh, merged by name, each object once (this node's own view
 * where it holds it), with the same cursor as a single node's listing.
 */
final class ClusterListing {

    /** A page whose items are this node's views and the other nodes' as they wrote them. */
    record Page(List<Object> items, String next) {
    }

    private ClusterListing() {
    }

    /**
     * @param here   this node's objects after the cursor, in name order, at least {@code limit + 1} if there are
     * @param others the other nodes' objects under the same prefix, in name order
     * @param cursor the last name of the page before, or null
     */
    static Page page(List<MediaObject> here, List<PeerLibraries.Held> others, String cursor, int limit,
                     Function<MediaObject, ObjectView> view) {
        List<Object> items = new ArrayList<>(limit);
        String last = null;
        int i = 0;
        int j = 0;
        while (j < others.size() && cursor != null && others.get(j).object().name().compareTo(cursor) <= 0) {
            j++;
        }
        while (items.size() < limit && (i < here.size() || j < others.size())) {
            String mine = i < here.size() ? here.get(i).name() : null;
            String theirs = j < others.size() ? others.get(j).object().name() : null;
            int order = mine == null ? 1 : theirs == null ? -1 : mine.compareTo(theirs);
            if (order <= 0) {
                items.add(view.apply(here.get(i++)));
                last = mine;
                j += order == 0 ? 1 : 0;
            } else {
                items.add(others.get(j++).object().view());
                last = theirs;
            }
        }
        boolean more = i < here.size() || j < others.size();
        return new Page(items, more ? ObjectCursor.after(last) : null);
    }
}
