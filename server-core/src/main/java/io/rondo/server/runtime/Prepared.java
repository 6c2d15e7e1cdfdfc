package io.rondo.server.runtime;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.device.OpenFile;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * A continuous object made ready to stream: its files open, and for each fragment where it is
 * (its file, its model position, its disk), so that planning a round touches no file system.
 * A stored object's fragments are fixed; a live recording's grow while it is streamed
 * ({@link #count()} rises), each known once it is cut.
 */
public interface Prepared {

    /** The object as it was prepared (a live recording's entry at that moment). */
    MediaObject object();

    /** The fragments known now. */
    int count();

    /** Fragment {@code i}, placed. */
    Fragment fragment(int i);

    /** The open file holding fragment {@code i}. */
    OpenFile file(int i);

    /** Fragment {@code i}'s model position on its disk, for SCAN. */
    long position(int i);

    /** The index of the disk holding fragment {@code i}, in {@link DiskRuntime#diskNames()} order. */
    int diskIndex(int i);

    /** The media index now: a live recording's grows by a fragment a round. */
    default MediaIndex media() {
        return object().media();
    }

    /** The media time durable so far: a stored object's whole duration. */
    default long durableNs() {
        return media().durationNs();
    }

    /** The most bytes one fragment may have: what a client's buffer must hold two of. */
    default long peakFragmentBytes() {
        return media().peakFragmentBytes();
    }

    /** Whether more fragments may come: a recording still being written. */
    default boolean growing() {
        return false;
    }

    /**
     * Tells {@code listener} of each fragment cut from now on (its index) and of the end (-1), on
     * the thread that cuts it, until the returned handle is closed. A stored object never changes.
     */
    default AutoCloseable watch(IntConsumer listener) {
        return () -> { };
    }

    /**
     * Fragment {@code i}'s bytes if they are in memory (a live recording's newest, held by its
     * recorder), to be sent without a disk read; else null, and they are read from the disk.
     */
    default ByteBuffer inMemory(int i) {
        return null;
    }

    /**
     * A stored object: its open files by placement index, each fragment's model position and disk index.
     */
    record Stored(MediaObject object, List<OpenFile> files, long[] positions, int[] diskIndexes) implements Prepared {

        @Override
        public int count() {
            return positions.length;
        }

        @Override
        public Fragment fragment(int i) {
            return object.media().fragments().get(i);
        }

        @Override
        public OpenFile file(int i) {
            return files.get(fragment(i).file());
        }

        @Override
        public long position(int i) {
            return positions[i];
        }

        @Override
        public int diskIndex(int i) {
            return diskIndexes[i];
        }
    }
}
