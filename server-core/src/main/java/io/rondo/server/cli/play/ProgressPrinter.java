package io.rondo.server.cli.play;

import java.io.PrintWriter;

/**
 * Draws the progress line on standard error. On a terminal it is redrawn in place with a
 * carriage return, at most every {@link #REDRAW_NS}; anywhere else (a log file, a CI console)
 * carriage returns would pile up into one unreadable line, so a whole line is printed every
 * {@link #LOG_LINE_NS} instead.
 */
final class ProgressPrinter {
    static final long REDRAW_NS = 250_000_000L;
    static final long LOG_LINE_NS = 5_000_000_000L;

    private final PrintWriter err;
    private final boolean quiet;
    private final boolean redraw;
    private boolean printed;
    private boolean showing;
    private long lastNs;
    private int width;

    /**
     * @param err standard error
     * @param quiet whether to show nothing but failures
     * @param redraw whether standard error is a terminal, where the line is redrawn in place
     */
    ProgressPrinter(PrintWriter err, boolean quiet, boolean redraw) {
        this.err = err;
        this.quiet = quiet;
        this.redraw = redraw;
    }

    /** Shows the meter's progress line if the last one is old enough. */
    void update(PlaybackMeter meter, long nowNs) {
        if (quiet || printed && nowNs - lastNs < (redraw ? REDRAW_NS : LOG_LINE_NS)) {
            return;
        }
        String line = PlayMessages.progressLine(meter, nowNs);
        if (redraw) {
            err.print("\r" + padded(line));
            showing = true;
        } else {
            err.println(line);
        }
        err.flush();
        printed = true;
        lastNs = nowNs;
    }

    /** The summary, over the progress line; nothing when quiet. */
    void end(String line) {
        if (!quiet) {
            finalLine(line);
        }
    }

    /** A failure's explanation, shown even when quiet. */
    void fail(String line) {
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
