package io.rondo.content.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.rondo.content.model.MediaObject;
import net.openhft.chronicle.hash.ChronicleHashCorruption;
import net.openhft.chronicle.hash.Data;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;
import net.openhft.chronicle.map.ExternalMapQueryContext;
import net.openhft.chronicle.map.MapEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * The catalog of papers/001 Section 6(a), persisted in Chronicle Map: {@code catalog/objects.cmap}
 * maps each object's id to its entry ({@link MediaObjectCodec}), {@code catalog/meta.cmap} holds
 * the id counter, and {@code catalog/schema.properties} the entry layout's version
 * ({@link CatalogFolder}).
 *
 * <p><b>Durability.</b> {@link #put}, {@link #remove} and {@link #nextId} write into the mapped
 * file before they return, so what they did survives the JVM dying in any way (a kill -9
 * included): the pages belong to the operating system. A machine crash or power loss keeps only
 * what the OS had written back (Linux: within about 30 s); Chronicle Map has no msync per write.
 * An open after a process died with the catalog open recovers the maps
 * ({@code recoverPersistedTo}): it frees the segment locks the dead process held and drops an
 * entry whose checksum fails, which can only be the one a put or remove was writing at the moment
 * of death. That object may be lost, both versions if the put was replacing it; every other
 * object is whole ({@code ChildJvmCatalogTest} kills a JVM in the middle of its puts).
 *
 * <p><b>Size.</b> The map is sized for 65,536 entries of 1 KiB on average (84 MB of file, allocated
 * when it is created, not sparse) and may grow 16-fold. A discrete object takes about 100 bytes,
 * a continuous one about 8 bytes per fragment: 58 KB for a 2-hour film at one fragment per
 * second. One entry may take up to {@value #MAX_ENTRY_BYTES} bytes, a fragment table of about
 * 250,000 fragments.
 *
 * <p><b>Indexes.</b> Names are indexed in memory, sorted, rebuilt when the catalog opens from the
 * names at the head of the entries, read in place: the map of objects is the only thing on disk,
 * so no crash can leave an index that disagrees with it. Opening 100,000 objects takes about
 * 70 ms in a warm JVM ({@code CatalogReopenBenchmark}). The first Chronicle Map a JVM opens costs
 * about a second more, whatever its size: Chronicle generates classes and compiles them with
 * javac, which is why it needs a JDK.
 *
 * <p><b>Decoded objects.</b> {@link #byName}, which every HTTP request asks, answers from a cache
 * of decoded objects by name when it can ({@value #DECODED_BYTES} bytes of entries at most,
 * weighed by their encoded size), so a hot object costs neither a Chronicle Map read nor a decode.
 * The cache is filled under the read lock and emptied of a name under the write lock by every
 * {@link #put} and {@link #remove} that touches the name, before the lock is let go: a reader
 * after a write never sees what the write replaced. Only this process writes the catalog (the
 * folder is locked), so no write can come from elsewhere.
 *
 * <p><b>Threads.</b> Any thread may read or write. Writes take a write lock, so the name check,
 * the map, the name index and the decoded cache change together; reads take a read lock only to
 * copy an entry's bytes and decode them after.
 */
public final class ChronicleCatalog implements Catalog {

    /** The largest entry this catalog stores; Chronicle Map's limit for this sizing is about 2.6 MB. */
    public static final int MAX_ENTRY_BYTES = 2 << 20;

    static final String OBJECTS_FILE = "objects.cmap";
    static final String META_FILE = "meta.cmap";

    private static final Logger LOG = LoggerFactory.getLogger(ChronicleCatalog.class);
    private static final long ENTRIES = 1 << 16;
    private static final int AVERAGE_ENTRY_BYTES = 1024;
    private static final double MAX_BLOAT_FACTOR = 16;
    private static final String NEXT_ID = "nextId";
    /** The most bytes of entries (encoded) whose decoded objects {@link #byName} keeps. */
    static final long DECODED_BYTES = 32L << 20;

    private final CatalogFolder folder;
    private final ChronicleMap<Long, byte[]> objects;
    private final ChronicleMap<String, Long> meta;
    private final boolean recovered;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final TreeMap<String, Long> idsByName = new TreeMap<>();
    private final Cache<String, Decoded> decodedByName = Caffeine.newBuilder()
        .maximumWeight(DECODED_BYTES)
        .weigher((String name, Decoded decoded) -> decoded.entryBytes())
        .executor(Runnable::run)
        .build();
    private final Thread closeOnExit;
    private long nextId;
    private volatile boolean closed;

    /** A decoded object and the size of the entry it was decoded from, its weight in the cache. */
    private record Decoded(MediaObject object, int entryBytes) {
    }

    private ChronicleCatalog(CatalogFolder folder, ChronicleMap<Long, byte[]> objects, ChronicleMap<String, Long> meta,
                             boolean recovered) {
        this.folder = folder;
        this.objects = objects;
        this.meta = meta;
        this.recovered = recovered;
        long[] maxId = {0};
        objects.forEachEntry(entry -> {
            Long id = entry.key().get();
            Data<byte[]> value = entry.value();
            String name = MediaObjectCodec.decodeName(value.bytes(), value.offset(), value.size());
            Long other = idsByName.put(name, id);
            if (other != null) {
                throw new IllegalStateException("objects " + other + " and " + id + " of the catalog in "
                    + folder.path() + " have the same name " + name);
            }
            maxId[0] = Math.max(maxId[0], id);
        });
        this.nextId = Math.max(Math.max(1, maxId[0] + 1), meta.getOrDefault(NEXT_ID, 1L));
        this.closeOnExit = new Thread(this::close, "rondo-catalog-close");
        Runtime.getRuntime().addShutdownHook(closeOnExit);
    }

    /**
     * Opens the catalog in {@code dataDir/catalog}, creating it if there is none, and recovering it
     * if the last process to open it did not close it; {@code clock} times a recovery, for the log.
     *
     * @throws IllegalStateException if the catalog has another schema version, or is open elsewhere
     * @throws UncheckedIOException  if its files cannot be read or written
     */
    public static ChronicleCatalog open(Path dataDir, Clock clock) {
        CatalogFolder folder = CatalogFolder.lock(dataDir.resolve("catalog"));
        ChronicleMap<Long, byte[]> objects = null;
        ChronicleMap<String, Long> meta = null;
        try {
            File objectsFile = folder.path().resolve(OBJECTS_FILE).toFile();
            File metaFile = folder.path().resolve(META_FILE).toFile();
            folder.checkOrWriteSchema(MediaObjectCodec.SCHEMA_VERSION, objectsFile.exists() || metaFile.exists());
            boolean recover = !folder.wasClosedCleanly() && (objectsFile.exists() || metaFile.exists());
            folder.markOpen();
            long startMs = clock.millis();
            List<String> corruptions = new ArrayList<>();
            objects = openMap(objectsBuilder(), objectsFile, recover, corruptions::add);
            meta = openMap(metaBuilder(), metaFile, recover, corruptions::add);
            if (recover) {
                LOG.warn("The catalog in {} was not closed; recovered it in {} ms: {} objects, {} corruptions "
                    + "reported{}", folder.path(),
                    clock.millis() - startMs, objects.size(), corruptions.size(),
                    corruptions.isEmpty() ? "" : ": " + corruptions);
            }
            return new ChronicleCatalog(folder, objects, meta, recover);
        } catch (IOException e) {
            closeQuietly(objects, meta, folder);
            throw new UncheckedIOException("cannot open the catalog in " + folder.path() + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            closeQuietly(objects, meta, folder);
            throw e;
        }
    }

    /** Whether this open found the catalog not closed by the last process and recovered it. */
    public boolean recovered() {
        return recovered;
    }

    @Override
    public long nextId() {
        lock.writeLock().lock();
        try {
            ensureOpen();
            long id = nextId;
            meta.put(NEXT_ID, id + 1);
            nextId = id + 1;
            return id;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public Optional<MediaObject> byId(long id) {
        byte[] entry;
        lock.readLock().lock();
        try {
            ensureOpen();
            entry = objects.get(id);
        } finally {
            lock.readLock().unlock();
        }
        return entry == null ? Optional.empty() : Optional.of(MediaObjectCodec.decode(id, entry));
    }

    @Override
    public Optional<MediaObject> byName(String name) {
        Decoded cached = decodedByName.getIfPresent(name);
        if (cached != null && !closed) {
            return Optional.of(cached.object());
        }
        lock.readLock().lock();
        try {
            ensureOpen();
            Long found = idsByName.get(name);
            if (found == null) {
                return Optional.empty();
            }
            byte[] entry = objects.get(found);
            MediaObject object = MediaObjectCodec.decode(found, entry);
            decodedByName.put(name, new Decoded(object, entry.length));
            return Optional.of(object);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>An id that {@link #nextId} has not handed out yet is taken as handed out: it will not be.
     *
     * @throws IllegalArgumentException if the id is not positive, the name is empty, or the
     *                                  entry would take more than {@value #MAX_ENTRY_BYTES} bytes
     */
    @Override
    public void put(MediaObject object) {
        Objects.requireNonNull(object, "object");
        if (object.id() < 1) {
            throw new IllegalArgumentException("catalog ids start at 1: " + object.id() + " (" + object.name() + ")");
        }
        if (object.name() == null || object.name().isEmpty()) {
            throw new IllegalArgumentException("an object in the catalog needs a name: object " + object.id());
        }
        byte[] entry = MediaObjectCodec.encode(object);
        if (entry.length > MAX_ENTRY_BYTES) {
            int fragments = object.media() == null ? 0 : object.media().fragments().size();
            throw new IllegalArgumentException(object.name() + " takes " + entry.length + " bytes in the catalog ("
                + fragments + " fragments), more than the " + MAX_ENTRY_BYTES + " an entry may take; index it with "
                + "longer fragments");
        }
        lock.writeLock().lock();
        try {
            ensureOpen();
            Long holder = idsByName.get(object.name());
            if (holder != null && holder != object.id()) {
                throw new IllegalStateException("the name " + object.name() + " is taken by object " + holder
                    + ", so object " + object.id() + " cannot have it");
            }
            String oldName = storedName(object.id());
            objects.put(object.id(), entry);
            if (oldName != null && !oldName.equals(object.name())) {
                idsByName.remove(oldName);
                decodedByName.invalidate(oldName);
            }
            idsByName.put(object.name(), object.id());
            decodedByName.invalidate(object.name());
            if (object.id() >= nextId) {
                meta.put(NEXT_ID, object.id() + 1);
                nextId = object.id() + 1;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public Optional<MediaObject> remove(long id) {
        byte[] entry;
        lock.writeLock().lock();
        try {
            ensureOpen();
            String name = storedName(id);
            if (name == null) {
                return Optional.empty();
            }
            entry = objects.remove(id);
            idsByName.remove(name);
            decodedByName.invalidate(name);
        } finally {
            lock.writeLock().unlock();
        }
        return Optional.of(MediaObjectCodec.decode(id, entry));
    }

    @Override
    public List<MediaObject> all() {
        return namedWith("", null, Integer.MAX_VALUE);
    }

    @Override
    public List<MediaObject> withPrefix(String prefix) {
        return namedWith(Objects.requireNonNull(prefix, "prefix"), null, Integer.MAX_VALUE);
    }

    /** {@inheritDoc} Only the page's entries are read and decoded, however many objects the prefix has. */
    @Override
    public List<MediaObject> page(String prefix, String after, int limit) {
        return namedWith(Objects.requireNonNull(prefix, "prefix"), after, limit);
    }

    @Override
    public int size() {
        lock.readLock().lock();
        try {
            ensureOpen();
            return idsByName.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Closes the maps and leaves the mark that tells the next open there is nothing to recover. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            decodedByName.invalidateAll();
            meta.close();
            objects.close();
            folder.markClosedCleanly();
            folder.close();
        } finally {
            lock.writeLock().unlock();
        }
        if (Thread.currentThread() != closeOnExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(closeOnExit);
            } catch (IllegalStateException shuttingDown) {
                // The JVM is exiting: the hook runs and finds the catalog closed.
            }
        }
    }

    @Override
    public String toString() {
        return "ChronicleCatalog[" + folder.path() + "]";
    }

    /**
     * Up to {@code limit} objects whose names start with {@code prefix} and sort after {@code after}
     * (from the first when null), in name order.
     */
    private List<MediaObject> namedWith(String prefix, String after, int limit) {
        List<Long> ids = new ArrayList<>();
        List<byte[]> entries = new ArrayList<>();
        lock.readLock().lock();
        try {
            ensureOpen();
            SortedMap<String, Long> from = after == null || after.compareTo(prefix) < 0
                ? idsByName.tailMap(prefix, true) : idsByName.tailMap(after, false);
            for (Map.Entry<String, Long> named : from.entrySet()) {
                if (!named.getKey().startsWith(prefix) || ids.size() == limit) {
                    break;
                }
                ids.add(named.getValue());
                entries.add(objects.get(named.getValue()));
            }
        } finally {
            lock.readLock().unlock();
        }
        List<MediaObject> result = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            result.add(MediaObjectCodec.decode(ids.get(i), entries.get(i)));
        }
        return result;
    }

    /** The name in the entry of {@code id}, read in place, or null if there is none. */
    private String storedName(long id) {
        try (ExternalMapQueryContext<Long, byte[], ?> context = objects.queryContext(id)) {
            MapEntry<Long, byte[]> entry = context.entry();
            if (entry == null) {
                return null;
            }
            Data<byte[]> value = entry.value();
            return MediaObjectCodec.decodeName(value.bytes(), value.offset(), value.size());
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the catalog in " + folder.path() + " is closed");
        }
    }

    private static ChronicleMapBuilder<Long, byte[]> objectsBuilder() {
        return ChronicleMap.of(Long.class, byte[].class)
            .name("rondo-catalog-objects")
            .entries(ENTRIES)
            .averageValueSize(AVERAGE_ENTRY_BYTES)
            .maxBloatFactor(MAX_BLOAT_FACTOR)
            .putReturnsNull(true)
            .skipCloseOnExitHook(true);
    }

    private static ChronicleMapBuilder<String, Long> metaBuilder() {
        return ChronicleMap.of(String.class, Long.class)
            .name("rondo-catalog-meta")
            .entries(16)
            .averageKey(NEXT_ID)
            .skipCloseOnExitHook(true);
    }

    private static <K, V> ChronicleMap<K, V> openMap(ChronicleMapBuilder<K, V> builder, File file, boolean recover,
                                                     Consumer<String> corruptions) throws IOException {
        if (recover && file.exists()) {
            return builder.recoverPersistedTo(file, true,
                (ChronicleHashCorruption corruption) -> corruptions.accept(file.getName() + " segment "
                    + corruption.segmentIndex() + ": " + corruption.message()));
        }
        return builder.createPersistedTo(file);
    }

    private static void closeQuietly(ChronicleMap<?, ?> objects, ChronicleMap<?, ?> meta, CatalogFolder folder) {
        try {
            if (meta != null) {
                meta.close();
            }
            if (objects != null) {
                objects.close();
            }
        } finally {
            folder.close();
        }
    }
}
