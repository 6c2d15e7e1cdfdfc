package io.rondo.server.cli;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** The progress bars of long commands, on standard error so that standard output stays clean. */
final class Progress {

    private Progress() {
    }

    static ProgressBar bar(String task, long max, String unit) {
        return new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(max)
            .setUnit(unit, 1)
            .setStyle(ProgressBarStyle.ASCII)
            .setConsumer(new ConsoleProgressBarConsumer(System.err))
            .setUpdateIntervalMillis(250)
            .continuousUpdate()
            .build();
    }
}
