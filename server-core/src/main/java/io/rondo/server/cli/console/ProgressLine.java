package io.rondo.server.cli.console;

import java.io.PrintWriter;
import java.util.function.Supplier;

/**
 * A command's progress line on standard error, for a stream whose end is not known in advance
 * ({@code rondo play}, {@code rondo record}). On a terminal it is redrawn in place with a carriage
 * return, at most once a redraw interval; anywhere else (a log file, a CI console) carriage returns
 * would pile up into one unreadable line, so a whole line is printed every {@link #LOG_LINE_NS}
 * instead. The caller passes its clock's reading; the line is only composed when it is shown.
 */
public final class ProgressLine {
    /** The least time between two lines where standard error is not a terminal. */
    public static final long LOG_LINE_NS = 5_000_000_000L;

    private final PrintWriter err;
    private final boolean quiet;
    private final boolean redraw;
    private final long redrawNs;
    private boolean printed;
    private boolean showing;
    private long lastNs;
    private int width;

    /**
     * @param err standard error
     * @param quiet whether to show nothing but failures
     * @param redraw whether standard error is a terminal, where the line is redrawn in place
     * @param redrawNs the least time between two redraws on a terminal
     */
    public ProgressLine(PrintWriter err, boolean quiet, boolean redraw, long redrawNs) {
        this.err = err;
        this.quiet = quiet;
        this.redraw = redraw;
        this.redrawNs = redrawNs;
    }

    /**
     * Shows the line if the last one is old enough.
     *
     * @param nowNs the caller's clock
     * @param line the progress line, without a carriage return; asked for only when shown
     */
    public void update(long nowNs, Supplier<String> line) {
        if (quiet || printed && nowNs - lastNs < (redraw ? redrawNs : LOG_LINE_NS)) {
            return;
        }
        String text = line.get();
        if (redraw) {
            err.print("\r" + padded(text));
            showing = true;
        } else {
            err.println(text);
        }
        err.flush();
        printed = true;
        lastNs = nowNs;
    }

    /** The summary, over the progress line; nothing when quiet. */
    public void end(String line) {
        if (!quiet) {
            finalLine(line);
        }
    }

    /** A failure's explanation, shown even when quiet. */
    public void fail(String line) {
        finalLine(line);
    }

    private void finalLine(String line) {
        err.println(showing ? "\r" + padded(line) : line);
        err.flush();
        showing = false;
        width = 0;
    }

    private String padded(String line) {
        String result = line.length() < width ? line + " ".repeat(width - line.length()) : line;
        width = line.length();
        return result;
    }
}
