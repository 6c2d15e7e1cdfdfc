package io.rondo.server.stream;

import io.rondo.client.protocol.ErrorCode;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.admission.Cadence;
import io.rondo.scheduler.exec.MissedRoundException;
import io.rondo.server.runtime.Chunk;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.runtime.Prepared;
import io.rondo.content.model.Fragment;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The reads of one stream's fragments (papers/001 Section 2, papers/000 Section 2.2): one
 * C-request per round for the fragment due next, which the round clock asks for ({@link #plan}),
 * and the reads made at once, ahead of the sweep: a start's or a SEEK's first fragments, and a
 * read the disk dropped unread at its round's end, read again (double buffering leaves it a round
 * before its deadline, and the disk never refuses a stream's read). Which fragment is read when is
 * the {@link RoundPlan}'s; the requests are the {@link DiskRuntime}'s. Fragments go to the stream
 * in the order the disks finish them; one read for an earlier start of the stream (before a SEEK)
 * is let go.
 *
 * <p>The round clock's thread calls {@link #plan}; the stream's event loop calls everything else,
 * and every read completes there.
 */
final class FragmentReads {

    /** What the reads tell their stream, on its event loop. */
    interface Stream {

        /** A fragment was read: it waits to be sent by its deadline. */
        void fragmentRead(Outbox.Ready fragment);

        /** The stream cannot go on: a read failed on the disk, or its client has stopped taking data. */
        void error(ErrorCode code, String why);
    }

    private final DiskRuntime disks;
    private final Prepared prepared;
    private final RoundPlan plan;
    private final long streamId;
    private final Executor eventLoop;
    private final Stream stream;

    /**
     * @param prepared  the stream's object, ready to read
     * @param streamId  the stream whose buffers the fragments are read into
     * @param eventLoop the stream's event loop, where reads complete
     */
    FragmentReads(DiskRuntime disks, Prepared prepared, long streamId, Executor eventLoop,
                  Stream stream) {
        this.disks = disks;
        this.prepared = prepared;
        this.plan = new RoundPlan(prepared);
        this.streamId = streamId;
        this.eventLoop = eventLoop;
        this.stream = stream;
    }

    /**
     * Starts (or, after a SEEK, restarts) at fragment {@code first}, the one holding the keyframe,
     * for a position in fragment {@code last}: the fragments up to it are read at once, due at
     * {@code deadlineNs}; {@code dropped} fragments read for the old position were let go.
     */
    void start(int first, int last, int dropped, long deadlineNs) {
        readNow(plan.start(first, last, dropped), deadlineNs);
    }

    /**
     * The client asked for fragments up to {@code last}: those not yet read are read at once, as a
     * start's are, due at {@code deadlineNs} (see {@link RoundPlan#catchUp}).
     */
    void catchUp(int last, long deadlineNs) {
        readNow(plan.catchUp(last), deadlineNs);
    }

    /**
     * The round clock asks: this stream's C-requests on {@code disk} in {@code round}, which starts
     * at {@code startNs}, added to {@code into}: one per run of its fragments lying next to each other
     * there (one, for fragments read one a round or a disk's share of a longer cycle's). The round's
     * first fragment is due the round after (double buffering), each next one a round later.
     */
    void plan(int disk, long round, long startNs, List<ContinuousRequest> into) {
        RoundPlan.Read read = plan.planRound(disk, round);
        if (read == null) {
            return;
        }
        if (read == RoundPlan.Read.LAGGING) {
            eventLoop.execute(() -> stream.error(ErrorCode.CLIENT_TIMEOUT, "the client has not taken its "
                + "data for " + RoundPlan.LAG_ROUNDS + " rounds; the stream is ended"));
            return;
        }
        int[] fragments = read.fragments();
        int from = 0;
        while (from < fragments.length) {
            int to = from + 1;
            while (to < fragments.length && prepared.inMemory(fragments[from]) == null
                && follows(fragments[to - 1], fragments[to])) {
                to++;
            }
            ContinuousRequest request = request(read, Arrays.copyOfRange(fragments, from, to), startNs);
            if (request != null) {
                into.add(request);
            }
            from = to;
        }
    }

    /** Whether fragment {@code next} lies right after fragment {@code previous} in the same file, on disk. */
    private boolean follows(int previous, int next) {
        Fragment before = prepared.fragment(previous);
        Fragment after = prepared.fragment(next);
        return prepared.inMemory(next) == null && before.file() == after.file()
            && before.fileOffset() + before.length() == after.fileOffset();
    }

    /** One C-request for {@code run}, or none if its one fragment is in a recorder's memory. */
    private ContinuousRequest request(RoundPlan.Read read, int[] run, long startNs) {
        long[] deadlines = new long[run.length];
        long[] lengths = new long[run.length];
        for (int i = 0; i < run.length; i++) {
            deadlines[i] = startNs + (2L + run[i] - read.roundFirst()) * disks.roundNs();
            lengths[i] = prepared.fragment(run[i]).length();
        }
        CompletableFuture<Chunk> result = new CompletableFuture<>();
        ByteBuffer held = prepared.inMemory(run[0]);
        ContinuousRequest request = held == null
            ? disks.fragmentRequest(prepared, run, streamId, result) : null;
        result.whenCompleteAsync((chunk, failure) -> {
            Chunk[] pieces = chunk == null ? null : run.length == 1 ? new Chunk[] {chunk} : chunk.split(lengths);
            for (int i = 0; i < run.length; i++) {
                arrived(new RoundPlan.Read(run[i], read.generation()), pieces == null ? null : pieces[i], failure,
                    deadlines[i]);
            }
        }, eventLoop);
        if (held != null) {
            result.complete(Chunk.inMemory(held));
        }
        return request;
    }

    /**
     * A live recording cut fragment {@code fragment}: a stream waiting for it at the live edge
     * takes it now from the recorder's memory, due one round from {@code nowNs}.
     */
    void cut(int fragment, long nowNs) {
        RoundPlan.Read read = plan.cut(fragment);
        if (read != null) {
            readNow(new RoundPlan.Read[] {read}, nowNs + disks.roundNs());
        }
    }

    /** A fragment's buffer came free; while the stream catches up to its start, the next is read at once. */
    void released(long deadlineNs) {
        RoundPlan.Read next = plan.released();
        if (next != null) {
            readNow(new RoundPlan.Read[] {next}, deadlineNs);
        }
    }

    /** Whether reads issued for {@code generationThen} still belong to the stream. */
    boolean current(int generationThen) {
        return plan.current(generationThen);
    }

    /** The stream's start generation: a SEEK begins a new one. */
    int generation() {
        return plan.generation();
    }

    /** From the next round on, the stream reads at {@code cadence}: see {@link RoundPlan#cadence(Cadence)}. */
    void cadence(Cadence cadence) {
        plan.cadence(cadence);
    }

    /** While paused, the rounds read nothing for the stream. */
    void pause(boolean pause) {
        plan.pause(pause);
    }

    /** The stream ended: no more reads, and what arrives is let go. */
    void close() {
        plan.close();
    }

    private void readNow(RoundPlan.Read[] reads, long deadlineNs) {
        for (RoundPlan.Read read : reads) {
            ByteBuffer held = prepared.inMemory(read.fragment());
            CompletableFuture<Chunk> chunk = held == null ? disks.readFragmentNow(prepared, read.fragment(), streamId)
                : CompletableFuture.completedFuture(Chunk.inMemory(held));
            chunk.whenCompleteAsync((data, failure) -> arrived(read, data, failure, deadlineNs), eventLoop);
        }
    }

    /**
     * A fragment's read completed: to the stream, unless the stream has moved on or ended; read
     * again at once if the disk dropped it at its round's end; a failure on the disk ends the
     * stream with READ_FAILED, since its object cannot be played.
     */
    private void arrived(RoundPlan.Read read, Chunk chunk, Throwable failure, long deadlineNs) {
        if (!plan.current(read.generation())) {
            if (chunk != null) {
                chunk.release();
            }
            released(deadlineNs);
            return;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (cause instanceof MissedRoundException) {
            readNow(new RoundPlan.Read[] {read}, deadlineNs);
        } else if (cause != null) {
            stream.error(ErrorCode.READ_FAILED, "cannot read fragment " + read.fragment() + " of "
                + prepared.object().name() + ": " + cause.getMessage());
        } else {
            stream.fragmentRead(new Outbox.Ready(read.fragment(), chunk, deadlineNs));
        }
    }
}
