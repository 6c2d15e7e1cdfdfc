package io.rondo.server.live;

import io.rondo.content.catalog.Catalog;
import io.rondo.content.ingest.ContentStore;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.media.LiveHeader;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.exec.MissedRoundException;
import io.rondo.server.config.LiveSettings;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.runtime.Prepared;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The recordings being written, and their writes in the disks' rounds (papers/000 Sections 2.1
 * to 2.3): once a round, each recording's fragments cut since its last write are one C-request
 * of its disk, ordered by position in the same sweep as the read streams' and charged to the same
 * round. What may block (creating and reserving files, the catalog, closing) runs on one worker
 * thread of their own, never on an event loop or a disk's thread.
 *
 * <p>A recording's catalog entry is put after each write is forced, with every fragment written so
 * far: the catalog, which survives a process crash whole, and the data file agree up to the last
 * round written, and at the next start ({@link #recover}) each recording a crash interrupted is
 * closed with them.
 */
public final class LiveRecordings implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LiveRecordings.class);
    private static final long CLOSE_WAIT_MS = 5_000;
    private static final long RETENTION_SWEEP_S = 60;

    private final ContentStore store;
    private final Catalog catalog;
    private final DiskRuntime disks;
    private final LiveSettings settings;
    private final Clock clock;
    private final LiveFiles files;
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "rondo-live");
        thread.setDaemon(true);
        return thread;
    });
    /** Names held by publishers, from their PUBLISH to their recording's close. */
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    private final Map<Long, LiveRecording> recordings = new ConcurrentHashMap<>();
    /** For each recording, how far its data file is reserved. */
    private final Map<Long, Long> reservedTo = new ConcurrentHashMap<>();
    private final LiveTotals totals = new LiveTotals();

    public LiveRecordings(ContentStore store, DiskRuntime disks, LiveSettings settings, Clock clock) {
        this.store = store;
        this.catalog = store.catalog();
        this.disks = disks;
        this.settings = settings;
        this.clock = clock;
        this.files = new LiveFiles(store, disks);
    }

    /**
     * Keeps {@code retention} from now on: a sweep a minute on the worker, if it has any rule.
     */
    public void keep(LiveRetention retention) {
        if (retention.any()) {
            worker.scheduleWithFixedDelay(retention::sweep, 0, RETENTION_SWEEP_S, TimeUnit.SECONDS);
        }
    }

    /** The recordings' worker: where what may block on the file system runs, in order. */
    public Executor worker() {
        return worker;
    }

    /** What every recording did, and the recordings now. */
    public LiveTotals totals() {
        return totals;
    }

    /**
     * Holds {@code name} for a publisher until {@link #release}: the name as the catalog writes
     * it, or why it cannot be had (an object or another recording has it).
     */
    public Claim claim(String name) {
        String normalized;
        try {
            normalized = ObjectNames.normalize(name);
        } catch (IllegalArgumentException e) {
            return new Claim(null, e.getMessage());
        }
        if (catalog.byName(normalized).isPresent()) {
            return new Claim(null, normalized + " is an object already: record under another name");
        }
        if (!names.add(normalized)) {
            return new Claim(null, normalized + " is being recorded by another publisher");
        }
        return new Claim(normalized, null);
    }

    /** A name held for a publisher, or why not ({@code name} null). */
    public record Claim(String name, String refusal) {
    }

    /** Lets go of a name a publisher held and never recorded under. */
    public void release(String name) {
        if (name != null) {
            names.remove(name);
        }
    }

    /** The disk a new recording is written to: the one with the most room. Reads the file system. */
    public String diskForNext() {
        return files.roomiest();
    }

    /**
     * Starts recording under {@code name} (held by {@link #claim}) on {@code disk}, its init segment
     * {@code header}: its files created and reserved on the worker. Completes with the recording,
     * or fails with why.
     */
    public CompletableFuture<LiveRecording> start(String name, String disk, LiveHeader header, long peakBitsPerSecond,
                                                  long streamId, LiveRecording.Listener listener) {
        return CompletableFuture.supplyAsync(() -> {
            long id = catalog.nextId();
            long roundNs = disks.roundNs();
            long perRound = Math.max(1, (long) (peakBitsPerSecond / 8.0 * roundNs / 1e9));
            long reserve = perRound * settings.reserveRounds();
            try {
                LiveFiles.Created created = files.create(id, name, disk, header, reserve);
                LiveRecording recording = new LiveRecording(created, header, roundNs, peakBitsPerSecond, streamId,
                    clock.millis(), settings.memoryRounds(), listener, totals);
                reservedTo.put(id, reserve);
                recordings.put(id, recording);
                totals.recordingStarted();
                LOG.info("recording {} started on disk {} at up to {} bit/s", name, created.data().disk(),
                    peakBitsPerSecond);
                return recording;
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        }, worker);
    }

    /** The recordings being written now. */
    public List<LiveRecording> all() {
        return List.copyOf(recordings.values());
    }

    /** The recording of catalog object {@code id}, while it is written. */
    public Optional<LiveRecording> byId(long id) {
        return Optional.ofNullable(recordings.get(id));
    }

    /** The recording under {@code name}, while it is written. */
    public Optional<LiveRecording> byName(String name) {
        return recordings.values().stream().filter(recording -> recording.name().equals(name)).findFirst();
    }

    /** The publisher finished (or was ended): what was cut is written, then the recording closes. */
    public void finish(LiveRecording recording) {
        recording.finish();
        worker.execute(() -> closeIfDone(recording));
    }

    /**
     * A recording made ready to watch: its data file open for reading (on the disks' generator),
     * its fragments as they are cut.
     */
    public CompletableFuture<Prepared> prepare(LiveRecording recording) {
        return disks.open(recording.files().data()).thenApply(file -> {
            int disk = disks.diskIndex(recording.disk());
            long start = disks.position(disk, file, 0);
            return new LivePrepared(recording, file, disk, start, disks.model(recording.disk()).capacityBytes() - 1);
        });
    }

    /**
     * The round clock asks: the writes of disk {@code disk} in this round, one per recording with
     * fragments cut since its last write. Each is done on the disk's thread and forced; its
     * fragments are durable once the worker has put them in the catalog.
     */
    public List<ContinuousRequest> writesFor(int disk, long round, long startNs) {
        List<ContinuousRequest> writes = new ArrayList<>();
        for (LiveRecording recording : recordings.values()) {
            if (disks.diskIndex(recording.disk()) != disk) {
                continue;
            }
            LiveRecording.Pending pending = recording.planWrite();
            if (pending == null) {
                continue;
            }
            CompletableFuture<Void> done = new CompletableFuture<>();
            writes.add(disks.writeRequest(disk, recording.files().writable(), pending.fileOffset(), pending.data(),
                recording.streamId(), done));
            done.whenCompleteAsync((ignored, failure) -> written(recording, pending, failure), worker);
        }
        return writes;
    }

    /** On the worker: a write completed, failed, or missed its round. */
    private void written(LiveRecording recording, LiveRecording.Pending pending, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (cause instanceof MissedRoundException) {
            recording.missed();
            totals.lateWrite();
            return;
        }
        if (cause != null) {
            LOG.warn("recording {}: {}", recording.name(), cause.getMessage());
            close(recording, LiveFailure.of(cause));
            return;
        }
        MediaObject entry = recording.written(pending);
        try {
            catalog.put(entry);
        } catch (RuntimeException e) {
            close(recording, new LiveFailure(false, "the catalog refused the recording's index: " + e.getMessage()));
            return;
        }
        totals.written(pending.data().limit());
        recording.published(pending.toFragment());
        reserveAhead(recording, pending.endOffset());
        closeIfDone(recording);
    }

    /** Reserves the next stretch of the data file once half of what is reserved is written. */
    private void reserveAhead(LiveRecording recording, long writtenTo) {
        long reserve = recording.peakBytesPerRound() * settings.reserveRounds();
        long reserved = reservedTo.getOrDefault(recording.id(), 0L);
        if (reserved - writtenTo > reserve / 2) {
            return;
        }
        try {
            recording.files().writable().allocate(reserved, reserve);
            reservedTo.put(recording.id(), reserved + reserve);
        } catch (IOException e) {
            close(recording, LiveFailure.of(e));
        }
    }

    private void closeIfDone(LiveRecording recording) {
        if (recording.readyToClose()) {
            close(recording, null);
        }
    }

    /** On the worker: closes a recording with every fragment durable so far; {@code failure} says why if it failed. */
    private void close(LiveRecording recording, LiveFailure failure) {
        if (recordings.remove(recording.id()) == null) {
            return;
        }
        reservedTo.remove(recording.id());
        MediaObject last = recording.object(recording.durableFragments());
        try {
            files.close(recording.files(), last.placement().files().get(1).length());
            if (last.media().fragments().isEmpty()) {
                catalog.remove(last.id());
            } else {
                catalog.put(last);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("recording {}: closing its files failed: {}", recording.name(), e.getMessage());
        }
        names.remove(recording.name());
        totals.recordingEnded();
        synchronized (recordings) {
            recordings.notifyAll();
        }
        LOG.info("recording {} closed with {} fragments ({} s){}", recording.name(), last.media().fragments().size(),
            last.media().durationNs() / 1_000_000_000L, failure == null ? "" : ": " + failure.message());
        recording.closedWith(failure);
    }

    /**
     * Closes the recordings a crash interrupted, each with the fragments its catalog entry holds
     * (every round written before the crash): its data file cut to them, its mark removed. One
     * that had no durable round is removed. Returns how many were closed. Call before serving.
     */
    public int recover() throws IOException {
        int closed = 0;
        for (LiveFiles.Interrupted interrupted : files.interrupted()) {
            Optional<MediaObject> entry = catalog.byId(interrupted.id());
            if (entry.isPresent() && entry.get().placement().files().size() > 1) {
                files.closeInterrupted(interrupted, entry.get().placement().files().get(1));
                LOG.warn("recording {} was interrupted; closed with its {} durable fragments ({} s)",
                    interrupted.name(), entry.get().media().fragments().size(),
                    entry.get().media().durationNs() / 1_000_000_000L);
                closed++;
            } else {
                files.removeInterrupted(interrupted);
                LOG.warn("recording {} was interrupted before its first round was durable; removed",
                    interrupted.name());
            }
        }
        return closed;
    }

    /**
     * Finishes every recording (the server is stopping), waiting a little for their last writes:
     * call while the disks still run.
     */
    @Override
    public void close() {
        for (LiveRecording recording : recordings.values()) {
            finish(recording);
        }
        synchronized (recordings) {
            long waits = CLOSE_WAIT_MS / 10;
            while (!recordings.isEmpty() && waits-- > 0) {
                try {
                    recordings.wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        worker.shutdown();
        try {
            if (!worker.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("recordings still being written at shutdown: {}; the next start closes them",
                    recordings.values().stream().map(LiveRecording::name).toList());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
