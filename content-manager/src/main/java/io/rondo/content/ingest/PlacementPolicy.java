package io.rondo.content.ingest;

/** Where new objects go. */
public enum PlacementPolicy {
    /**
     * Continuous objects striped round-robin over every disk, one contiguous file per disk;
     * discrete objects on the disk with the most free space. The default.
     */
    STRIPED,
    /** Every object whole on the disk with the most free space: for one-disk setups and tests. */
    MOST_FREE
}
