package io.rondo.server.cli.play;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static io.rondo.server.cli.play.PlaybackMeterTest.ACCEPTED_NS;
import static io.rondo.server.cli.play.PlaybackMeterTest.SECOND;
import static io.rondo.server.cli.play.PlaybackMeterTest.data;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When and how the progress line reaches standard error, on a clock stepped by hand. */
class ProgressPrinterTest {

    private final StringWriter err = new StringWriter();
    private final PlaybackMeter meter = PlaybackMeterTest.meter();

    private ProgressPrinter printer(boolean quiet, boolean terminal) {
        meter.received(data(0, SECOND, 123_456), ACCEPTED_NS);
        return new ProgressPrinter(new PrintWriter(err), quiet, terminal);
    }

    @Test
    void onATerminalTheLineIsRedrawnInPlaceAtMostFourTimesASecond() {
        ProgressPrinter printer = printer(false, true);

        printer.update(meter, ACCEPTED_NS);
        printer.update(meter, ACCEPTED_NS + ProgressPrinter.REDRAW_NS - 1);
        printer.update(meter, ACCEPTED_NS + ProgressPrinter.REDRAW_NS);
        printer.end("done");

        String[] draws = err.toString().split("\r", -1);
        assertEquals(4, draws.length, "two redraws and the summary over them: " + err);
        assertTrue(draws[1].startsWith("rondo play: 1.0 s (1 fragment)"), draws[1]);
        assertFalse(draws[1].contains("\n"), "redrawn in place, not a new line");
        assertEquals("done" + " ".repeat(draws[2].length() - 4) + System.lineSeparator(), draws[3],
            "the summary blanks out what is left of the progress line");
    }

    @Test
    void aShorterLineBlanksOutWhatIsLeftOfTheLongerOneBefore() {
        ProgressPrinter printer = printer(false, true);
        String longer = PlayMessages.progressLine(meter, ACCEPTED_NS);
        printer.update(meter, ACCEPTED_NS);
        meter.received(data(1, 2 * SECOND, 10), ACCEPTED_NS + SECOND);
        String shorter = PlayMessages.progressLine(meter, ACCEPTED_NS + 40 * SECOND);
        assertTrue(shorter.length() < longer.length(), "the rate fell: " + shorter);

        printer.update(meter, ACCEPTED_NS + 40 * SECOND);

        assertEquals("\r" + longer + "\r" + shorter + " ".repeat(longer.length() - shorter.length()), err.toString());
    }

    @Test
    void inALogALineIsPrintedEveryFewSecondsWithoutCarriageReturns() {
        ProgressPrinter printer = printer(false, false);

        for (long t = 0; t <= ProgressPrinter.LOG_LINE_NS; t += SECOND) {
            printer.update(meter, ACCEPTED_NS + t);
        }
        printer.fail("rondo play: it broke");

        assertFalse(err.toString().contains("\r"), err.toString());
        assertEquals(3, err.toString().lines().count(), "at 0 s and 5 s, then the failure: " + err);
    }

    @Test
    void quietPrintsNoProgressAndNoSummaryButStillExplainsFailures() {
        ProgressPrinter printer = printer(true, true);

        printer.update(meter, ACCEPTED_NS);
        printer.end("rondo play: the stream ended");
        printer.fail("rondo play: it broke");

        assertEquals("rondo play: it broke" + System.lineSeparator(), err.toString());
    }
}
