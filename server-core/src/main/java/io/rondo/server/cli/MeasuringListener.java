package io.rondo.server.cli;

import io.rondo.scheduler.device.DiskProfiler;
import io.rondo.server.runtime.DiskModels;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * What a command shows while it profiles a disk at its first start: a line saying which disk and
 * why, on standard error, and the profile's progress bars unless quiet.
 */
final class MeasuringListener implements DiskModels.Listener, AutoCloseable {

    private final PrintWriter err;
    private final boolean quiet;
    private final BooleanSupplier stopped;
    private ProfileBars bars;

    /**
     * @param err     where the line goes
     * @param quiet   no progress bars
     * @param stopped true once the command should stop (Ctrl-C): the profile then stops too
     */
    MeasuringListener(PrintWriter err, boolean quiet, BooleanSupplier stopped) {
        this.err = err;
        this.quiet = quiet;
        this.stopped = stopped;
    }

    @Override
    public DiskProfiler.Listener profiling(String disk, Path root, String why) {
        err.println("rondo: profiling disk " + disk + " (" + root + ") for its disk model, as " + why
            + ": a few seconds, once");
        err.flush();
        close();
        bars = new ProfileBars(quiet, stopped);
        return bars;
    }

    /** Closes the last profile's bars, however it ended. */
    @Override
    public void close() {
        if (bars != null) {
            bars.close();
        }
    }
}
