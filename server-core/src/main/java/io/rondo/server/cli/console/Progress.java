package io.rondo.server.cli.console;

import io.rondo.scheduler.time.SystemClocks;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The progress bars of long commands, on standard error so that standard output stays clean. On a
 * terminal a bar is redrawn in place; anywhere else (a CI log, a file, a pipe) it is a line at most
 * every {@link #LOG_INTERVAL_NS 5 s}, and the last state when it closes, so a log holds a few lines
 * instead of one per redraw.
 */
public final class Progress {

    /** The least time between two lines of a bar that is not on a terminal. */
    static final long LOG_INTERVAL_NS = 5_000_000_000L;

    /** The width a bar has where there is no terminal to measure. */
    private static final int LOG_WIDTH = 100;

    private Progress() {
    }

    /**
     * A bar of {@code max} steps of one {@code unit} each.
     *
     * @param task the bar's name, before it
     * @param max  the steps to the end
     * @param unit the unit after the counts, e.g. {@code " MiB"}
     */
    public static ProgressBar bar(String task, long max, String unit) {
        return bar(task, max, unit, 1, false);
    }

    /**
     * A bar of {@code max} steps, shown in units of {@code unitSize} steps, with the speed if asked.
     *
     * @param task     the bar's name, before it
     * @param max      the steps to the end
     * @param unit     the unit after the counts, e.g. {@code "MiB"}
     * @param unitSize the steps in one unit, e.g. {@code 1 << 20} for bytes shown in MiB
     * @param speed    whether to show the steps a second
     */
    public static ProgressBar bar(String task, long max, String unit, long unitSize, boolean speed) {
        ProgressBarBuilder builder = new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(max)
            .setUnit(unit, unitSize)
            .setStyle(ProgressBarStyle.ASCII)
            .setConsumer(consumer(System.err, stderrIsTerminal()))
            .setUpdateIntervalMillis(250)
            .continuousUpdate();
        return speed ? builder.showSpeed().build() : builder.build();
    }

    /** Redrawn in place on a terminal; log lines at most every 5 s elsewhere. */
    static ProgressBarConsumer consumer(PrintStream err, boolean terminal) {
        return terminal ? new ConsoleProgressBarConsumer(err)
            : new LogLines(err::println, SystemClocks.nanoClock()::nanoTime, LOG_INTERVAL_NS);
    }

    /**
     * True if standard error is a terminal, where a bar can redraw in place. Java 17's
     * {@code System.console()} answers for standard input and output, and {@code -o - | ffplay -}
     * redirects standard output while standard error stays on the terminal; so on Linux the
     * answer comes from file descriptor 2 itself.
     */
    public static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    /**
     * A bar as log lines: the first state, then one line when at least the interval has passed
     * since the last, and on close the last state if it was not printed yet.
     */
    static final class LogLines implements ProgressBarConsumer {

        private final Consumer<String> out;
        private final LongSupplier nanoClock;
        private final long intervalNs;
        private boolean printedAny;
        private long printedNs;
        private String pending;

        /**
         * @param out        where a line goes
         * @param nanoClock  the clock of the interval
         * @param intervalNs the least time between two lines
         */
        LogLines(Consumer<String> out, LongSupplier nanoClock, long intervalNs) {
            this.out = out;
            this.nanoClock = nanoClock;
            this.intervalNs = intervalNs;
        }

        @Override
        public int getMaxRenderedLength() {
            return LOG_WIDTH;
        }

        @Override
        public void accept(String rendered) {
            long nowNs = nanoClock.getAsLong();
            String line = rendered.strip();
            if (!printedAny || nowNs - printedNs - intervalNs >= 0) {
                out.accept(line);
                printedAny = true;
                printedNs = nowNs;
                pending = null;
            } else {
                pending = line;
            }
        }

        @Override
        public void close() {
            if (pending != null) {
                out.accept(pending);
                pending = null;
            }
        }
    }
}
