package io.rondo.server.cli.console;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When and how a progress line reaches standard error, on a clock stepped by hand. */
class ProgressLineTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long REDRAW_NS = 250_000_000L;

    private final StringWriter err = new StringWriter();

    private ProgressLine line(boolean quiet, boolean terminal) {
        return new ProgressLine(new PrintWriter(err), quiet, terminal, REDRAW_NS);
    }

    @Test
    void onATerminalTheLineIsRedrawnInPlaceAtMostOnceARedrawInterval() {
        ProgressLine progress = line(false, true);

        progress.update(0, () -> "rondo play: 1.0 s (1 fragment)");
        progress.update(REDRAW_NS - 1, () -> "not shown");
        progress.update(REDRAW_NS, () -> "rondo play: 1.2 s (1 fragment)");
        progress.end("done");

        String[] draws = err.toString().split("\r", -1);
        assertEquals(4, draws.length, "two redraws and the summary over them: " + err);
        assertTrue(draws[1].startsWith("rondo play: 1.0 s (1 fragment)"), draws[1]);
        assertFalse(draws[1].contains("\n"), "redrawn in place, not a new line");
        assertFalse(err.toString().contains("not shown"));
        assertEquals("done" + " ".repeat(draws[2].length() - 4) + System.lineSeparator(), draws[3],
            "the summary blanks out what is left of the progress line");
    }

    @Test
    void aShorterLineBlanksOutWhatIsLeftOfTheLongerOneBefore() {
        ProgressLine progress = line(false, true);
        String longer = "rondo record: 12.0 MiB, 1.1 MiB/s";
        String shorter = "rondo record: 12.1 MiB, 9 B/s";
        progress.update(0, () -> longer);
        progress.update(40 * SECOND, () -> shorter);

        assertEquals("\r" + longer + "\r" + shorter + " ".repeat(longer.length() - shorter.length()), err.toString());
    }

    @Test
    void inALogALineIsPrintedEveryFewSecondsWithoutCarriageReturns() {
        ProgressLine progress = line(false, false);

        for (long t = 0; t <= ProgressLine.LOG_LINE_NS; t += SECOND) {
            long at = t;
            progress.update(t, () -> "at " + at);
        }
        progress.fail("rondo play: it broke");

        assertFalse(err.toString().contains("\r"), err.toString());
        assertEquals(3, err.toString().lines().count(), "at 0 s and 5 s, then the failure: " + err);
    }

    @Test
    void quietPrintsNoProgressAndNoSummaryButStillExplainsFailures() {
        ProgressLine progress = line(true, true);

        progress.update(0, () -> "progress");
        progress.end("rondo play: the stream ended");
        progress.fail("rondo play: it broke");

        assertEquals("rondo play: it broke" + System.lineSeparator(), err.toString());
    }
}
