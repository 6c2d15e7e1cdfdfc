package io.rondo.server.cli;

import io.rondo.server.cli.console.Progress;
import io.rondo.scheduler.device.DiskProfiler;
import me.tongfei.progressbar.ProgressBar;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * A disk profile's progress: a bar per phase, MiB written then IO sizes timed, on standard error.
 * When {@code stopped} turns true (Ctrl-C in a server still starting) the next report throws
 * {@link CancellationException}, which stops the run and deletes its test file.
 */
final class ProfileBars implements DiskProfiler.Listener, AutoCloseable {

    private final boolean quiet;
    private final BooleanSupplier stopped;
    private DiskProfiler.Phase phase;
    private ProgressBar bar;

    ProfileBars(boolean quiet, BooleanSupplier stopped) {
        this.quiet = quiet;
        this.stopped = stopped;
    }

    @Override
    public void progress(DiskProfiler.Phase now, long done, long total) {
        if (stopped.getAsBoolean()) {
            close();
            throw new CancellationException("stopped while profiling a disk: nothing was stored");
        }
        if (quiet) {
            return;
        }
        boolean writing = now == DiskProfiler.Phase.WRITING;
        if (now != phase) {
            close();
            phase = now;
            bar = writing ? Progress.bar("writing", total >> 20, " MiB")
                : Progress.bar(now == DiskProfiler.Phase.READING ? "reading" : "timing writes", total, " sizes");
        }
        bar.stepTo(writing ? done >> 20 : done);
        if (!writing && done == total) {
            close();
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
