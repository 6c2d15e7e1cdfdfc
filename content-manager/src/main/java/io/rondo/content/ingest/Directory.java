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
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The directory tree: names as paths, folders as their prefixes; listing, renaming and deleting.
 * An object being read holds a {@link Lease}. Deleting it never waits for its readers, as on a
 * Unix file system: the name and the files go at once, and a reader goes on with the files it has
 * open; once the last lease of a deleted object is closed, the listeners
 * ({@link #whenDeletedAndUnread}) hear of it, so whoever keeps its files open can close them.
 */
public final class Directory {

    private final ContentStore store;
    private final Clock clock;
    private final Map<Long, AtomicInteger> readers = new ConcurrentHashMap<>();
    /** Objects deleted while they were read, by id, until their last lease closes. */
    private final Map<Long, MediaObject> deletedWhileRead = new ConcurrentHashMap<>();
    private final List<Consumer<MediaObject>> unreadListeners = new CopyOnWriteArrayList<>();
    /** Whether an object, by id, is being written (a recording growing): it may be neither deleted nor renamed. */
    private volatile LongPredicate beingWritten = id -> false;

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
            if (closed) {
                return;
            }
            closed = true;
            MediaObject gone;
            synchronized (readers) {
                readers.computeIfPresent(id, (key, count) -> count.decrementAndGet() == 0 ? null : count);
                gone = readers.containsKey(id) ? null : deletedWhileRead.remove(id);
            }
            if (gone != null) {
                unread(gone);
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

    /**
     * Calls {@code listener} with each object deleted, once nothing reads it: at the delete when no
     * lease is open, else when its last lease is closed (on the thread that closes it).
     */
    public void whenDeletedAndUnread(Consumer<MediaObject> listener) {
        unreadListeners.add(listener);
    }

    private void unread(MediaObject object) {
        unreadListeners.forEach(listener -> listener.accept(object));
    }

    /** Tells the directory which objects are being written, so that none is deleted or renamed meanwhile. */
    public void whileWritten(LongPredicate writing) {
        this.beingWritten = writing;
    }

    /** Whether the object of {@code id} is being written now: a recording that grows. */
    public boolean beingWritten(long id) {
        return beingWritten.test(id);
    }

    /** Refused: the object is being written (a recording in progress). */
    public static final class BeingWritten extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        BeingWritten(String name) {
            super(name + " is being recorded: stop its recording first (DELETE /api/v1/live" + name + ")");
        }
    }

    private void notWritten(MediaObject object) {
        if (beingWritten.test(object.id())) {
            throw new BeingWritten(object.name());
        }
    }

    /** How many leases of the object with {@code id} are open. */
    public int readers(long id) {
        AtomicInteger count = readers.get(id);
        return count == null ? 0 : count.get();
    }

    /** Starts reading an object: until the lease is closed, its files stay open for it, deleted or not. */
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
        notWritten(object);
        if (store.catalog().byName(target).isPresent()) {
            throw new IllegalArgumentException("an object named " + target + " already exists");
        }
        String clash = ObjectNames.clash(store.catalog(), target);
        if (clash != null && !target.startsWith(source + "/")) {
            throw new IllegalArgumentException(clash);
        }
        MediaObject renamed = object.renamed(target, clock.millis());
        store.catalog().put(renamed);
        return renamed;
    }

    /**
     * Deletes an object at once: its catalog entry first, then its files, whoever reads it. A
     * reader goes on with the files it has open, as on a Unix file system; the object's listeners
     * ({@link #whenDeletedAndUnread}) hear of it once no lease of it is open.
     *
     * @throws IllegalArgumentException if no object has the name
     * @throws IOException              if a file could not be removed (the entry is gone already)
     */
    public MediaObject delete(String name) throws IOException {
        String normalized = ObjectNames.normalize(name);
        MediaObject object = store.catalog().byName(normalized)
            .orElseThrow(() -> new IllegalArgumentException("no object is named " + normalized));
        notWritten(object);
        boolean read;
        synchronized (readers) {
            store.catalog().remove(object.id());
            read = readers.containsKey(object.id());
            if (read) {
                deletedWhileRead.put(object.id(), object);
            }
        }
        try {
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
        } finally {
            if (!read) {
                unread(object);
            }
        }
        return object;
    }
}
