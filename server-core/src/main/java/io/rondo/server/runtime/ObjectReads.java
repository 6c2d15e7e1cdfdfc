package io.rondo.server.runtime;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiscreteRequest;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.IoTask;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Reads of objects turned into disk requests (papers/001 Section 6(b), the Generator's work): which
 * stored file and disk hold the bytes asked for, the file opened, its model position, and the
 * D-request handed to that disk's executor. What may block on the file system runs as a job of the
 * {@link Generator}; the callers, on event loops, only get futures.
 */
final class ObjectReads {

    private final Map<String, RuntimeDisk> disks;
    private final List<String> diskOrder;
    private final Generator generator;
    private final OpenFiles files;
    private final Function<StoredFile, Path> paths;
    private final NanoClock clock;
    private final int maxReadBytes;
    private final AtomicLong ids = new AtomicLong();

    ObjectReads(Map<String, RuntimeDisk> disks, Generator generator, OpenFiles files,
                Function<StoredFile, Path> paths, NanoClock clock, int maxReadBytes) {
        this.disks = disks;
        this.diskOrder = List.copyOf(disks.keySet());
        this.generator = generator;
        this.files = files;
        this.paths = paths;
        this.clock = clock;
        this.maxReadBytes = maxReadBytes;
    }

    /** A continuous object made ready to stream, on the generator's thread: see {@link DiskRuntime#prepare}. */
    CompletableFuture<Prepared> prepare(MediaObject object) {
        CompletableFuture<Prepared> result = new CompletableFuture<>();
        boolean queued = generator.offer(() -> {
            try {
                List<OpenFile> open = new ArrayList<>();
                for (StoredFile file : object.placement().files()) {
                    open.add(files.open(paths.apply(file)).file());
                }
                List<Fragment> fragments = object.media().fragments();
                long[] positions = new long[fragments.size()];
                int[] diskIndexes = new int[fragments.size()];
                for (int i = 0; i < positions.length; i++) {
                    Fragment fragment = fragments.get(i);
                    StoredFile file = object.placement().files().get(fragment.file());
                    RuntimeDisk disk = disk(object, file);
                    positions[i] = disk.position(open.get(fragment.file()), fragment.fileOffset());
                    diskIndexes[i] = diskOrder.indexOf(file.disk());
                }
                result.complete(new Prepared.Stored(object, open, positions, diskIndexes));
            } catch (IOException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        if (!queued) {
            result.completeExceptionally(new QueueFullException("the server is busy: too many requests waiting"));
        }
        return result;
    }

    /** One whole fragment read ahead of the sweep: see {@link DiskRuntime#readFragmentNow}. */
    CompletableFuture<Chunk> readFragmentNow(Prepared prepared, int fragmentIndex, long streamId) {
        CompletableFuture<Chunk> result = new CompletableFuture<>();
        Fragment fragment = prepared.fragment(fragmentIndex);
        long id = ids.incrementAndGet();
        DiscreteRequest request = new DiscreteRequest(id, id, prepared.position(fragmentIndex), fragment.length(),
            clock.nanoTime());
        request.attach(new IoTask(prepared.file(fragmentIndex), fragment.fileOffset(),
            (int) fragment.length(), streamId, Completions.of(result)));
        disks.get(diskOrder.get(prepared.diskIndex(fragmentIndex))).executor().submitUrgent(request);
        return result;
    }

    /** The C-request of fragments of a stream's round, next to each other: see {@link DiskRuntime#fragmentRequest}. */
    ContinuousRequest fragmentRequest(Prepared prepared, int[] fragmentIndexes, long streamId,
                                      CompletableFuture<Chunk> result) {
        Fragment first = prepared.fragment(fragmentIndexes[0]);
        long length = 0;
        long expected = first.fileOffset();
        for (int index : fragmentIndexes) {
            Fragment fragment = prepared.fragment(index);
            if (fragment.file() != first.file() || fragment.fileOffset() != expected) {
                throw new IllegalArgumentException("fragment " + index + " of " + prepared.object().name()
                    + " does not follow fragment " + fragmentIndexes[0] + "'s run in its file");
            }
            expected += fragment.length();
            length += fragment.length();
        }
        ContinuousRequest request = new ContinuousRequest(ids.incrementAndGet(), streamId,
            prepared.position(fragmentIndexes[0]), length);
        request.attach(new IoTask(prepared.file(fragmentIndexes[0]), first.fileOffset(), Math.toIntExact(length),
            streamId, Completions.of(result)));
        return request;
    }

    /** Up to {@code maxBytes} of an object as one D-request: see {@link DiskRuntime#read}. */
    CompletableFuture<Chunk> read(MediaObject object, long offset, int maxBytes) {
        CompletableFuture<Chunk> result = new CompletableFuture<>();
        long arrivalNs = clock.nanoTime();
        boolean queued = generator.offer(() -> {
            try {
                submit(object, offset, maxBytes, arrivalNs, result);
            } catch (IOException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        if (!queued) {
            result.completeExceptionally(new QueueFullException("the server is busy: too many reads waiting"));
        }
        return result;
    }

    private void submit(MediaObject object, long offset, int maxBytes, long arrivalNs, CompletableFuture<Chunk> result)
        throws IOException {
        Piece piece = locate(object, offset);
        int length = (int) Math.min(Math.min(maxBytes, maxReadBytes), piece.available());
        RuntimeDisk disk = disk(object, piece.file());
        OpenFiles.Cached cached = files.open(paths.apply(piece.file()));
        OpenFile file = cached.file();
        long id = ids.incrementAndGet();
        DiscreteRequest request = new DiscreteRequest(id, id, disk.position(file, piece.fileOffset()), length,
            arrivalNs);
        cached.readStarts();
        request.attach(new IoTask(file, piece.fileOffset(), length, BufferPool.NO_STREAM,
            Completions.timed(disk, arrivalNs, Completions.of(result, cached::readEnds))));
        if (!disk.executor().submit(request)) {
            cached.readEnds();
            result.completeExceptionally(
                new QueueFullException("disk " + disk.name() + " is overloaded: its queue is full"));
        }
    }

    private RuntimeDisk disk(MediaObject object, StoredFile file) throws IOException {
        RuntimeDisk disk = disks.get(file.disk());
        if (disk == null) {
            throw new IOException(object.name() + " is on disk '" + file.disk() + "', which is not configured");
        }
        return disk;
    }

    /** Lets go of a deleted object's files: see {@link DiskRuntime#forget}. */
    void forget(MediaObject object) {
        for (StoredFile stored : object.placement().files()) {
            files.forget(paths.apply(stored));
        }
    }

    /** Where the byte at {@code offset} of an object is stored, and how many bytes follow it there. */
    record Piece(StoredFile file, long fileOffset, long available) {
    }

    static Piece locate(MediaObject object, long offset) {
        if (offset < 0 || offset >= object.size()) {
            throw new IllegalArgumentException("offset " + offset + " is outside " + object.name() + " ("
                + object.size() + " bytes)");
        }
        List<StoredFile> stored = object.placement().files();
        if (object.media() == null) {
            return new Piece(stored.get(0), offset, object.size() - offset);
        }
        long initEnd = object.media().init().end();
        if (offset < initEnd) {
            return new Piece(stored.get(0), offset, initEnd - offset);
        }
        List<Fragment> fragments = object.media().fragments();
        int low = 0;
        int high = fragments.size() - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (fragments.get(mid).offset() <= offset) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        Fragment fragment = fragments.get(low);
        long into = offset - fragment.offset();
        return new Piece(stored.get(fragment.file()), fragment.fileOffset() + into, fragment.length() - into);
    }
}
