package io.rondo.server.runtime;

import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.OpenFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open-file table the generator owns: a file opened once for every read of its path, and the
 * D-requests in flight on each. A deleted file leaves the table at once ({@link #forget}), so a
 * later file at the same path is opened anew, and is closed when its last D-request is done.
 */
final class OpenFiles implements AutoCloseable {

    private final DiskIo io;
    private final Map<Path, Cached> files = new ConcurrentHashMap<>();

    OpenFiles(DiskIo io) {
        this.io = io;
    }

    /** An open file and the reads in flight on it. */
    static final class Cached {
        private final OpenFile file;
        private int reads;
        private boolean forgotten;

        Cached(OpenFile file) {
            this.file = file;
        }

        OpenFile file() {
            return file;
        }

        synchronized void readStarts() {
            reads++;
        }

        synchronized void readEnds() {
            reads--;
            closeIfDone();
        }

        synchronized void forget() {
            forgotten = true;
            closeIfDone();
        }

        private void closeIfDone() {
            if (forgotten && reads == 0) {
                closeQuietly(file);
            }
        }
    }

    /** The open file at {@code path}, opened now if no read has it open (may block on the file system). */
    Cached open(Path path) throws IOException {
        Cached open = files.get(path);
        if (open == null) {
            open = new Cached(io.open(path));
            Cached raced = files.putIfAbsent(path, open);
            if (raced != null) {
                open.file.close();
                open = raced;
            }
        }
        return open;
    }

    /** Lets go of the file at {@code path}: out of the table now, closed once its reads are done. */
    void forget(Path path) {
        Cached cached = files.remove(path);
        if (cached != null) {
            cached.forget();
        }
    }

    /** Closes every file, read or not: the disks have stopped. */
    @Override
    public void close() {
        for (Cached cached : files.values()) {
            closeQuietly(cached.file);
        }
        files.clear();
    }

    private static void closeQuietly(OpenFile file) {
        try {
            file.close();
        } catch (IOException e) {
            // Closing a file no one reads any more: nothing waits on it.
            return;
        }
    }
}
