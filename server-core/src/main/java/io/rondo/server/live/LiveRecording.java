package io.rondo.server.live;

import io.rondo.content.media.LiveFragment;
import io.rondo.content.media.LiveHeader;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.Placement;
import io.rondo.content.model.StoredFile;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntConsumer;

/**
 * One recording as it grows: the fragments its publisher's media was cut into, the newest of
 * them in memory, and how far they are durable. Its fragments are written one round after they
 * are cut, as one C-request of its disk's round ({@link LiveRecordings} plans it, {@link AlignedWrite}
 * fills it); a fragment is durable once its bytes are forced to the disk and its index entry is in
 * the catalog, so a crash loses at most the round being written.
 *
 * <p>Threads: the publisher's event loop appends fragments; the round clock plans writes; the
 * recordings' worker completes them; viewers read the index and the memory. One lock guards the
 * state; nothing inside it waits.
 */
public final class LiveRecording {

    /** What a recording tells whoever publishes it. */
    public interface Listener {

        /** {@code fragments} fragments are durable, the media up to {@code durableNs}. */
        void durable(int fragments, long durableNs);

        /** The recording is closed; {@code failure} says why if a write failed, else null. */
        void closed(LiveFailure failure);
    }

    private final LiveFiles.Created files;
    private final LiveHeader header;
    private final long roundNs;
    private final long peakBitsPerSecond;
    private final long streamId;
    private final long createdMs;
    private final int memoryFragments;
    private final Listener listener;
    private final AlignedWrite write;
    private final List<IntConsumer> watchers = new CopyOnWriteArrayList<>();
    private final LiveStats stats;

    private final List<Fragment> fragments = new ArrayList<>();
    /** The bytes of fragments [memoryFrom, fragments.size()): every one not yet durable, and a few more. */
    private final ArrayDeque<byte[]> memory = new ArrayDeque<>();
    private int memoryFrom;
    private long cutEnd;
    private int durable;
    private long durableEnd;
    private int writingTo = -1;
    private boolean finishing;
    private boolean closed;
    private volatile MediaIndex media;

    LiveRecording(LiveFiles.Created files, LiveHeader header, long roundNs, long peakBitsPerSecond, long streamId,
                  long createdMs, int memoryFragments, Listener listener, LiveTotals totals) {
        this.files = files;
        this.header = header;
        this.roundNs = roundNs;
        this.peakBitsPerSecond = peakBitsPerSecond;
        this.streamId = streamId;
        this.createdMs = createdMs;
        this.memoryFragments = Math.max(1, memoryFragments);
        this.listener = listener;
        this.stats = new LiveStats(totals);
        this.write = new AlignedWrite(2 * peakBytesPerRound());
        this.media = index(List.of());
    }

    /** The recording's catalog id. */
    public long id() {
        return files.id();
    }

    /** The name it is recorded under. */
    public String name() {
        return files.name();
    }

    /** The disk it is written to. */
    public String disk() {
        return files.data().disk();
    }

    /** The admission id its writes are charged to. */
    public long streamId() {
        return streamId;
    }

    /** The peak rate its publisher declared, bits per second. */
    public long peakBitsPerSecond() {
        return peakBitsPerSecond;
    }

    /** The bytes a round of it may take at the declared peak. */
    public long peakBytesPerRound() {
        return Math.max(1, (long) (peakBitsPerSecond / 8.0 * roundNs / 1e9));
    }

    /** When it started, epoch milliseconds. */
    public long createdMs() {
        return createdMs;
    }

    /** Its counters. */
    public LiveStats stats() {
        return stats;
    }

    /** Everything cut so far: durable or not, what a viewer at the live edge plays. */
    public MediaIndex media() {
        return media;
    }

    /** Fragments durable so far. */
    public synchronized int durableFragments() {
        return durable;
    }

    /** The media time durable so far. */
    public synchronized long durableNs() {
        return durable == 0 ? 0 : end(fragments.get(durable - 1));
    }

    /** Whether it is closed: no fragment will be added. */
    public synchronized boolean closed() {
        return closed;
    }

    /** Whether more fragments may come. */
    public synchronized boolean growing() {
        return !finishing && !closed;
    }

    /**
     * Adds the fragments a cutter gave, in order, to be written in the next round. Returns false,
     * adding nothing, if the recording is finishing or closed.
     */
    public boolean append(List<LiveFragment> cut) {
        if (cut.isEmpty()) {
            return true;
        }
        int first;
        synchronized (this) {
            if (finishing || closed) {
                return false;
            }
            first = fragments.size();
            long initLength = header.init().length;
            for (LiveFragment fragment : cut) {
                fragments.add(Fragment.unplaced(fragment.startNs(), fragment.durationNs(), initLength + cutEnd,
                    fragment.bytes().length, fragment.keyframeNs(), fragment.keyframeFirst()).placedAt(1, cutEnd));
                memory.add(fragment.bytes());
                cutEnd += fragment.bytes().length;
            }
            media = index(fragments);
        }
        for (int i = first; i < first + cut.size(); i++) {
            stats.cut();
            notifyWatchers(i);
        }
        return true;
    }

    /** The publisher is done: what was cut is written, then the recording closes. */
    void finish() {
        synchronized (this) {
            finishing = true;
        }
    }

    /** Whether it has finished and everything cut is durable: the recordings may close it. */
    synchronized boolean readyToClose() {
        return finishing && !closed && writingTo < 0 && durable == fragments.size();
    }

    /**
     * This round's write: the fragments cut and not yet durable, as one aligned buffer at the
     * block of the durable end; null when there is none or the last write is still in flight.
     */
    synchronized Pending planWrite() {
        if (closed || writingTo >= 0 || durable == fragments.size()) {
            return null;
        }
        List<byte[]> bytes = memory.stream().skip(durable - memoryFrom).toList();
        long start = AlignedWrite.startOf(durableEnd);
        ByteBuffer data = write.fill(durableEnd, bytes);
        writingTo = fragments.size();
        stats.writing(cutEnd - durableEnd);
        return new Pending(start, data, writingTo, cutEnd);
    }

    /** A write to issue: at {@code fileOffset}, {@code data}; it makes fragments up to {@code toFragment} durable. */
    record Pending(long fileOffset, ByteBuffer data, int toFragment, long endOffset) {
    }

    /**
     * The write reached the disk, forced: its fragments are durable once the catalog holds them.
     * Returns the catalog entry to put.
     */
    synchronized MediaObject written(Pending done) {
        write.written(done.endOffset(), done.fileOffset());
        durable = done.toFragment();
        durableEnd = done.endOffset();
        writingTo = -1;
        while (memory.size() > memoryFragments && memoryFrom < durable) {
            memory.poll();
            memoryFrom++;
        }
        stats.written(done.data().limit());
        return object(durable);
    }

    /** The write missed its round (the disk dropped it unread): it goes again next round. */
    synchronized void missed() {
        writingTo = -1;
        stats.lateWrite();
    }

    /** The catalog holds the fragments written: tell the publisher. */
    void published(int upTo) {
        long durableNs;
        synchronized (this) {
            durableNs = upTo == 0 ? 0 : end(fragments.get(upTo - 1));
        }
        listener.durable(upTo, durableNs);
    }

    /** Marks it closed (its files already closed and its last entry put) and tells everyone. */
    void closedWith(LiveFailure failure) {
        synchronized (this) {
            closed = true;
            finishing = true;
            memory.clear();
            memoryFrom = fragments.size();
        }
        notifyWatchers(-1);
        listener.closed(failure);
    }

    /** The catalog entry with the first {@code count} fragments: what a crash now would keep. */
    synchronized MediaObject object(int count) {
        List<Fragment> kept = fragments.subList(0, count);
        long dataBytes = count == 0 ? 0 : kept.get(count - 1).fileOffset() + kept.get(count - 1).length();
        long initLength = header.init().length;
        Placement placement = new Placement(List.of(new StoredFile(files.init().disk(), files.init().path(),
            initLength), new StoredFile(files.data().disk(), files.data().path(), dataBytes)));
        long size = initLength + dataBytes;
        return new MediaObject(files.id(), files.name(), Kind.CONTINUOUS, header.mimeType(), size,
            "\"live-" + files.id() + "-" + size + "\"", createdMs, createdMs, placement, index(kept));
    }

    /** The files it is written to. */
    LiveFiles.Created files() {
        return files;
    }

    /** Fragment {@code i}'s bytes if the recorder still holds them, else null. */
    synchronized ByteBuffer inMemory(int i) {
        if (i < memoryFrom || i >= fragments.size()) {
            return null;
        }
        int at = i - memoryFrom;
        for (byte[] bytes : memory) {
            if (at-- == 0) {
                return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
            }
        }
        return null;
    }

    /** Fragment {@code i} as cut. */
    synchronized Fragment fragment(int i) {
        return fragments.get(i);
    }

    /** Fragments cut so far. */
    synchronized int count() {
        return fragments.size();
    }

    /**
     * Tells {@code watcher} the index of each fragment cut from now on, and -1 when the recording
     * closes; on the thread that cut it. Returns what stops it.
     */
    public AutoCloseable watch(IntConsumer watcher) {
        watchers.add(watcher);
        return () -> watchers.remove(watcher);
    }

    /** Viewers watching now. */
    public int viewers() {
        return watchers.size();
    }

    private void notifyWatchers(int fragment) {
        for (IntConsumer watcher : watchers) {
            watcher.accept(fragment);
        }
    }

    private MediaIndex index(List<Fragment> kept) {
        long durationNs = kept.isEmpty() ? 0 : end(kept.get(kept.size() - 1));
        return new MediaIndex(header.container(), header.mimeType(), header.codecs(), durationNs,
            new ByteRange(0, header.init().length), kept);
    }

    private static long end(Fragment fragment) {
        return fragment.startNs() + fragment.durationNs();
    }
}
