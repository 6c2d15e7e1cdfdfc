package io.rondo.content.ingest;

import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The directory tree: names as paths, folders as their prefixes; listing, renaming and deleting.
 * An object being read holds a {@link Lease}; deleting it meanwhile is refused, so no reader
 * ever finds its bytes gone.
 */
public final class Directory {

    private final ContentStore store;
    private final Clock clock;
    private final Map<Long, AtomicInteger> readers = new ConcurrentHashMap<>();

    public Directory(ContentStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** One entry of a folder listing: a sub-folder or an object. */
    public record Entry(String name, boolean folder, long size, int objects, MediaObject object) {
    }

    /**
     * The entries directly in {@code folder}: sub-folders first (with the count and total size of
     * the objects under them), then objects, each group in name order.
     */
    public List<Entry> list(String folder) {
        String prefix = ObjectNames.folder(folder);
        Map<String, long[]> folders = new TreeMap<>();
        List<Entry> objects = new ArrayList<>();
        for (MediaObject object : store.catalog().withPrefix(prefix)) {
            String rest = object.name().substring(prefix.length());
            int slash = rest.indexOf('/');
            if (slash < 0) {
                objects.add(new Entry(object.name(), false, object.size(), 1, object));
            } else {
                long[] totals = folders.computeIfAbsent(prefix + rest.substring(0, slash + 1), key -> new long[2]);
                totals[0]++;
                totals[1] += object.size();
            }
        }
        List<Entry> entries = new ArrayList<>();
        folders.forEach((name, totals) -> entries.add(new Entry(name, true, totals[1], (int) totals[0], null)));
        entries.addAll(objects);
        return entries;
    }

    /** A lease that keeps an object from being deleted while it is read; close it when done. */
    public final class Lease implements AutoCloseable {
        private final long id;
        private final MediaObject object;
        private boolean closed;

        private Lease(MediaObject object) {
            this.id = object.id();
            this.object = object;
        }

        /** The object, as it was when the lease was taken. */
        public MediaObject object() {
            return object;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                readers.computeIfPresent(id, (key, count) -> count.decrementAndGet() == 0 ? null : count);
            }
        }
    }

    /**
     * The object of a name as {@link ObjectNames#normalize} gives it, without a lease: for an
     * answer that reads none of its bytes from a disk (a HEAD, a 304, a body from memory). What a
     * disk read needs is {@link #open}.
     */
    public Optional<MediaObject> find(String normalizedName) {
        return store.catalog().byName(normalizedName);
    }

    /** Starts reading an object: it cannot be deleted until the lease is closed. */
    public Optional<Lease> open(String name) {
        synchronized (readers) {
            Optional<MediaObject> object = store.catalog().byName(ObjectNames.normalize(name));
            object.ifPresent(found -> readers.computeIfAbsent(found.id(), key -> new AtomicInteger())
                .incrementAndGet());
            return object.map(Lease::new);
        }
    }

    /** Gives an object a new name; refused if the new name is taken. */
    public MediaObject rename(String from, String to) {
        String source = ObjectNames.normalize(from);
        String target = ObjectNames.normalize(to);
        MediaObject object = store.catalog().byName(source)
            .orElseThrow(() -> new IllegalArgumentException("no object is named " + source));
        if (store.catalog().byName(target).isPresent()) {
            throw new IllegalArgumentException("an object named " + target + " already exists");
        }
        MediaObject renamed = object.renamed(target, clock.millis());
        store.catalog().put(renamed);
        return renamed;
    }

    /**
     * Deletes an object: its catalog entry first, then its files.
     *
     * @throws IllegalStateException if it is being read
     */
    public MediaObject delete(String name) throws IOException {
        String normalized = ObjectNames.normalize(name);
        MediaObject object = store.catalog().byName(normalized)
            .orElseThrow(() -> new IllegalArgumentException("no object is named " + normalized));
        synchronized (readers) {
            AtomicInteger count = readers.get(object.id());
            if (count != null && count.get() > 0) {
                throw new IllegalStateException(normalized + " is being read by " + count.get() + " reader"
                    + (count.get() == 1 ? "" : "s") + "; delete it when they are done");
            }
            store.catalog().remove(object.id());
        }
        for (StoredFile file : object.placement().files()) {
            Path path = store.pathOf(file);
            Files.deleteIfExists(path);
            Path parent = path.getParent();
            if (parent.getFileName().toString().equals(Long.toString(object.id()))) {
                try (var left = Files.list(parent)) {
                    if (left.findAny().isEmpty()) {
                        Files.deleteIfExists(parent);
                    }
                }
            }
        }
        return object;
    }
}
