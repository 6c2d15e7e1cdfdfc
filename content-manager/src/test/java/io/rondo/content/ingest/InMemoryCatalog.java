package io.rondo.content.ingest;

import io.rondo.content.catalog.Catalog;
import io.rondo.content.model.MediaObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** A catalog in memory, for tests of what sits above the catalog. */
final class InMemoryCatalog implements Catalog {

    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, MediaObject> byId = new TreeMap<>();
    private final TreeMap<String, Long> byName = new TreeMap<>();

    @Override
    public long nextId() {
        return ids.incrementAndGet();
    }

    @Override
    public synchronized Optional<MediaObject> byId(long id) {
        return Optional.ofNullable(byId.get(id));
    }

    @Override
    public synchronized Optional<MediaObject> byName(String name) {
        return Optional.ofNullable(byName.get(name)).map(byId::get);
    }

    @Override
    public synchronized void put(MediaObject object) {
        Long holder = byName.get(object.name());
        if (holder != null && holder != object.id()) {
            throw new IllegalStateException("name taken: " + object.name());
        }
        MediaObject old = byId.put(object.id(), object);
        if (old != null) {
            byName.remove(old.name());
        }
        byName.put(object.name(), object.id());
    }

    @Override
    public synchronized Optional<MediaObject> remove(long id) {
        MediaObject old = byId.remove(id);
        if (old != null) {
            byName.remove(old.name());
        }
        return Optional.ofNullable(old);
    }

    @Override
    public synchronized List<MediaObject> all() {
        return withPrefix("");
    }

    @Override
    public synchronized List<MediaObject> withPrefix(String prefix) {
        List<MediaObject> objects = new ArrayList<>();
        for (Map.Entry<String, Long> entry : byName.tailMap(prefix, true).entrySet()) {
            if (!entry.getKey().startsWith(prefix)) {
                break;
            }
            objects.add(byId.get(entry.getValue()));
        }
        return objects;
    }

    @Override
    public synchronized int size() {
        return byId.size();
    }

    @Override
    public void close() {
    }
}
