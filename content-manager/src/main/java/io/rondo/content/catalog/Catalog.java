package io.rondo.content.catalog;

import io.rondo.content.model.MediaObject;

import java.util.List;
import java.util.Optional;

/**
 * The catalog of media objects: by id, by name, in name order. Names are unique. Thread-safe:
 * readers on any thread, the ingest service writing.
 */
public interface Catalog extends AutoCloseable {

    /** A fresh id: never returned before, not even across restarts. */
    long nextId();

    Optional<MediaObject> byId(long id);

    Optional<MediaObject> byName(String name);

    /**
     * Stores an object, replacing the one of the same id; durable when this returns.
     *
     * @throws IllegalStateException if another object already has its name
     */
    void put(MediaObject object);

    /** Removes the object of this id and returns it, if there was one. */
    Optional<MediaObject> remove(long id);

    /** Every object, in name order. */
    List<MediaObject> all();

    /** Objects whose names start with {@code prefix}, in name order. */
    List<MediaObject> withPrefix(String prefix);

    /**
     * One page of {@link #withPrefix}: up to {@code limit} objects whose names start with
     * {@code prefix} and sort after {@code after} (from the first when null), in name order.
     */
    default List<MediaObject> page(String prefix, String after, int limit) {
        return withPrefix(prefix).stream().filter(object -> after == null || object.name().compareTo(after) > 0)
            .limit(limit).toList();
    }

    int size();

    @Override
    void close();
}
