package io.rondo.server.cli.console;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A progress bar that is not on a terminal is a few log lines, not a line per redraw. */
class ProgressTest {

    private static final long MS = 1_000_000L;

    @Test
    void offATerminalABarIsALineAtMostEveryFiveSecondsAndItsLastState() {
        AtomicLong clock = new AtomicLong(1_000 * MS);
        List<String> lines = new ArrayList<>();
        Progress.LogLines log = new Progress.LogLines(lines::add, clock::get, Progress.LOG_INTERVAL_NS);

        for (int redraw = 0; redraw <= 48; redraw++) {
            log.accept("\rcopying " + redraw + "%   ");
            clock.addAndGet(250 * MS);
        }
        assertEquals(List.of("copying 0%", "copying 20%", "copying 40%"), lines,
            "the first state, then one line 5 s after the last one (redrawn every 250 ms)");

        log.accept("copying 49%");
        log.close();
        assertEquals("copying 49%", lines.get(lines.size() - 1), "the last state when the bar closes");
        assertEquals(4, lines.size());

        log.close();
        assertEquals(4, lines.size(), "said once");
    }

    @Test
    void aBarWhoseLastStateWasPrintedSaysNothingMoreOnClose() {
        AtomicLong clock = new AtomicLong();
        List<String> lines = new ArrayList<>();
        Progress.LogLines log = new Progress.LogLines(lines::add, clock::get, Progress.LOG_INTERVAL_NS);

        log.accept("done 100%");
        log.close();

        assertEquals(List.of("done 100%"), lines);
    }
}
