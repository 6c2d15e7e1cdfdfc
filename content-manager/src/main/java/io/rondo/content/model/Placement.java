package io.rondo.content.model;

import java.util.List;

/**
 * Where an object's bytes live. A discrete object is one file on one disk. A continuous object
 * is its init segment in one file, then one file per disk holding that disk's share of the
 * fragments, striped round-robin and stored contiguously, so one round's read for a stream is one
 * contiguous IO (papers/001 Section 1.1, papers/004 Section 3.1); each {@link Fragment} says
 * which file and where.
 *
 * @param files the files, the init segment's first for a continuous object
 */
public record Placement(List<StoredFile> files) {

    public Placement {
        files = List.copyOf(files);
        if (files.isEmpty()) {
            throw new IllegalArgumentException("an object is stored in at least one file");
        }
    }
}
