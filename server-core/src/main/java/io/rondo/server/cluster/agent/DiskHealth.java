package io.rondo.server.cluster.agent;

import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.server.runtime.DiskRuntime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a node's disks still work, judged from what their executors count: a disk fails when,
 * between two looks, IOs failed on it and none was done; it works again once one is done. Objects
 * are striped over every disk of a node, so one failed disk fails every stream: the node is down.
 * A disk that is idle keeps the verdict it had, so an agent checked often and one checked seldom
 * agree. Thread-safe: a look holds the object's monitor for a few reads of counters.
 */
public final class DiskHealth {

    /** What one disk's executor counts. */
    public interface Counts {
        /** IOs that failed since the start. */
        long failed();

        /** IOs done since the start. */
        long done();
    }

    private static final class Verdict {
        long failed;
        long done;
        long failedSince = -1;
    }

    private final Map<String, Counts> disks;
    private final Map<String, Verdict> verdicts = new LinkedHashMap<>();

    /** The disks by name, in the order a failure names them. */
    public DiskHealth(Map<String, ? extends Counts> disks) {
        this.disks = new LinkedHashMap<>(disks);
        disks.keySet().forEach(name -> verdicts.put(name, new Verdict()));
    }

    /** The health of {@code disks}' executors: their failed IOs against their reads and writes. */
    public static DiskHealth of(DiskRuntime disks) {
        Map<String, Counts> counts = new LinkedHashMap<>();
        for (String name : disks.diskNames()) {
            DiskExecutor executor = disks.executor(name);
            counts.put(name, new Counts() {
                @Override
                public long failed() {
                    return executor.ioErrors();
                }

                @Override
                public long done() {
                    return executor.reads() + executor.writes();
                }
            });
        }
        return new DiskHealth(counts);
    }

    /** The disks' names. */
    public List<String> diskNames() {
        return List.copyOf(disks.keySet());
    }

    /** Looks at every disk: why the first that fails does, or null when none does. */
    public synchronized String failure() {
        String failure = null;
        for (Map.Entry<String, Counts> disk : disks.entrySet()) {
            Verdict verdict = verdicts.get(disk.getKey());
            long failed = disk.getValue().failed();
            long done = disk.getValue().done();
            if (done > verdict.done) {
                verdict.failedSince = -1;
            } else if (failed > verdict.failed && verdict.failedSince < 0) {
                verdict.failedSince = verdict.failed;
            }
            verdict.failed = failed;
            verdict.done = done;
            if (failure == null && verdict.failedSince >= 0) {
                failure = "disk " + disk.getKey() + " fails: " + (failed - verdict.failedSince)
                    + " IO(s) failed and none was done since";
            }
        }
        return failure;
    }
}
