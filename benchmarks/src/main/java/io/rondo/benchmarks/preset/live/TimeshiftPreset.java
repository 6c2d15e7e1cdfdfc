package io.rondo.benchmarks.preset.live;

import io.rondo.benchmarks.load.live.LiveFeed;
import io.rondo.benchmarks.rig.Clip;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.scheduler.time.SystemClocks;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * papers/002 (ABISS) Section 5.2 on this machine: recording two streams while watching one of
 * them timeshifted, under eight greedy readers, with guarantees (Rondo) against best effort (the
 * page cache with a fsync a second, nginx's paced Range reads). Reports write jitter (each round's
 * bytes sent to DURABLE; each second's write + fsync) and read jitter (paced reads' lateness) side
 * by side. Writes timeshift.json, timeshift.md and timeshift.png.
 */
@Command(name = "timeshift", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "papers/002 Section 5.2: recordings and a timeshifted viewer under greedy readers, write and read jitter "
            + "with guarantees (Rondo) beside best effort (page cache + fsync a second, nginx).",
        "",
        "ffmpeg makes a live fragmented MP4 (4 Mbit/s, a keyframe a second). Phase 1: --recordings publishers send "
            + "it to Rondo in real time (declared peak --peak), a viewer opens the first recording --behind seconds "
            + "after it started and reads it block by block as its media is due, and --greedy readers GET large "
            + "files whole from Rondo's HTTP port. Phase 2 writes the same bytes at the same pace to files through "
            + "the page cache with a fsync a second, nginx (directio) serves the first to a paced Range reader "
            + "--behind seconds behind, and the greedy readers GET from nginx. Results go to --out."
    })
public final class TimeshiftPreset implements Callable<Integer> {

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results/timeshift",
        description = "Where timeshift.json, .md and .png go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--quick", description = "A smoke run of under a minute: 10 s a phase, the viewer 3 s behind, "
        + "8 MiB greedy files.")
    boolean quick;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "How long each phase records "
        + "(default: 45; --quick: 10).")
    Integer durationSeconds;

    @Option(names = "--recordings", paramLabel = "N", defaultValue = "2",
        description = "Recordings written at once (default: ${DEFAULT-VALUE}, as papers/002).")
    int recordings;

    @Option(names = "--behind", paramLabel = "SECONDS", description = "How far behind the recording the viewer "
        + "watches (default: 10; --quick: 3).")
    Integer behindSeconds;

    @Option(names = "--block", paramLabel = "BYTES", defaultValue = "10240",
        description = "What one paced read of the viewer takes (default: ${DEFAULT-VALUE}, papers/002's 10 kB).")
    int blockBytes;

    @Mixin
    LiveOptions live = new LiveOptions();

    private final PrintStream console = System.out;

    /** Runs both phases and writes the results. */
    @Override
    public Integer call() throws Exception {
        TimeshiftSettings s = settings();
        NanoClock clock = SystemClocks.nanoClock();
        long startedNs = clock.nanoTime();
        console.printf(Locale.ROOT, "timeshift: %d recordings of %d kbit/s, a viewer %d s behind, %d greedy readers of "
            + "%d MiB, %d s a phase%n", s.recordings(), s.bitrateKbit(), s.behindSeconds(), s.greedy(), s.greedyMib(),
            s.durationSeconds());
        Path work = live.work;
        Files.createDirectories(work);
        Files.createDirectories(out);
        Path clip = Clip.makeLive(work.resolve("clips"), s.bitrateKbit() * 1000L, s.clipSeconds());
        FileSet big = FileSet.make(work.resolve(String.format(Locale.ROOT, "greedy-%dx%dMiB", s.greedy(),
            s.greedyMib())), Math.max(1, s.greedy()), s.greedyMib() * 1024L * 1024, 0, 14);
        Path data = LiveRig.library(work, big, console);
        TimeshiftPhases phases = new TimeshiftPhases(work, console, clock);
        LiveFeed[] feed = new LiveFeed[1];
        String stamp = Long.toString(SystemClocks.epochClock().time());
        TimeshiftPhases.Side rondo = phases.rondo(s, clip, data, big, stamp, feed);
        TimeshiftPhases.Side bestEffort = phases.bestEffort(s, feed[0], big);
        TimeshiftReport report = new TimeshiftReport(s.describe(), rondo, bestEffort, clock.nanoTime() - startedNs);
        report.write(out);
        console.print(report.text());
        console.printf(Locale.ROOT, "wrote %s, %s and %s%n", out.resolve(TimeshiftReport.JSON),
            out.resolve(TimeshiftReport.MARKDOWN), out.resolve(TimeshiftReport.PNG));
        return 0;
    }

    /** The run's parameters, --quick's or the defaults where an option was not given. */
    TimeshiftSettings settings() {
        TimeshiftSettings s = new TimeshiftSettings(recordings, live.greedy, live.greedyMib(quick),
            durationSeconds != null ? durationSeconds : quick ? 10 : 45,
            behindSeconds != null ? behindSeconds : quick ? 3 : 10, live.bitrateKbit, live.peakKbit, blockBytes,
            live.greedyNice, quick);
        if (!live.valid(quick) || s.recordings() < 1 || s.behindSeconds() < 1
            || s.durationSeconds() <= s.behindSeconds() || s.blockBytes() < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--recordings, --greedy, --greedy-size, "
                + "--behind and --block must be at least 1, --duration longer than --behind, --bitrate at least 100 "
                + "kbit/s and --peak at least --bitrate, --greedy-nice 0 to 19");
        }
        return s;
    }
}
