package io.rondo.server.admin;

import java.util.HashSet;
import java.util.Set;

/**
 * The uploads under way: their names, so that two requests never upload one name at once, and how
 * many, at most {@link #MAX_UPLOADS}, so that the one upload thread's queue stays bounded (each
 * upload has at most a piece and its abandonment waiting on it: {@link #QUEUE}).
 */
final class UploadSlots {

    /** The most uploads at once; one more is refused with 503 until one ends. */
    static final int MAX_UPLOADS = 8;

    /** The upload thread's queue: room for a piece of each upload and its abandonment. */
    static final int QUEUE = 2 * MAX_UPLOADS;

    private final Set<String> names = new HashSet<>();

    /**
     * Takes a slot for an upload to {@code name}.
     *
     * @throws Problem 409 if {@code name} is being uploaded, 503 if {@link #MAX_UPLOADS} uploads are
     */
    synchronized void take(String name) {
        if (names.contains(name)) {
            throw Problem.conflict(name + " is being uploaded by another request");
        }
        if (names.size() == MAX_UPLOADS) {
            throw Problem.busy(MAX_UPLOADS + " uploads are under way, the most the admin port takes at once; "
                + "try again when one is done");
        }
        names.add(name);
    }

    /** The upload to {@code name} is over, whichever way. */
    synchronized void release(String name) {
        names.remove(name);
    }
}
