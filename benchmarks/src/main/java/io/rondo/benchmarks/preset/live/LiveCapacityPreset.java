package io.rondo.benchmarks.preset.live;

import io.rondo.benchmarks.load.greedy.GreedyProcess;
import io.rondo.benchmarks.load.live.LiveFeed;
import io.rondo.benchmarks.load.live.PacedPublisher;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.load.paced.PacedReader;
import io.rondo.benchmarks.load.stream.FragmentListener;
import io.rondo.benchmarks.load.stream.LoadResults;
import io.rondo.benchmarks.load.stream.LoadRun;
import io.rondo.benchmarks.load.stream.LoadSettings;
import io.rondo.benchmarks.load.stream.LoadSummary;
import io.rondo.benchmarks.rig.Clip;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.RondoCheckout;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Issue 23's capacity target on this machine: many recordings of 4 Mbit/s, many viewers of them
 * (half at the newest fragment as it appears, half behind) and greedy HTTP downloads, all at once,
 * on the server's default configuration. Reports late write rounds, late fragments and every
 * refusal by its reason (admission may refuse the excess); every answer is checked. Writes
 * live-capacity.json, live-capacity.md and live-capacity.png.
 */
@Command(name = "live-capacity", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Recordings, viewers at the live edge and behind it, and greedy downloads together on Rondo: late write "
            + "rounds, late fragments, refusals by reason.",
        "",
        "ffmpeg makes a live fragmented MP4 (4 Mbit/s, a keyframe a second); --recordings publishers send it in real "
            + "time (declared peak --peak). Once --behind seconds are recorded, --viewers players open over --ramp "
            + "seconds, each on a recording in turn, FROM_LIVE: even ones at the live edge, odd ones --behind "
            + "seconds behind it; each plays for --duration. --greedy readers GET large files whole from Rondo's "
            + "HTTP port meanwhile. The edge viewers' delay behind live is each DATA's arrival minus the send of "
            + "the bytes that complete its fragment. Results go to --out."
    })
public final class LiveCapacityPreset implements Callable<Integer> {

    private static final long MIB = 1024L * 1024;
    private static final long LEAD_NS = LiveRig.SECOND_NS / 5;
    /** How long the recordings outlast the viewers, so none of them reaches a recording's end. */
    private static final long TAIL_NS = 3 * LiveRig.SECOND_NS;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results/live-capacity",
        description = "Where live-capacity.json, .md and .png go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--quick", description = "A smoke run of under a minute: 2 recordings, 4 viewers 3 s behind, "
        + "8 s of viewing, 8 MiB greedy files.")
    boolean quick;

    @Option(names = "--recordings", paramLabel = "N", description = "Recordings (default: 20; --quick: 2).")
    Integer recordings;

    @Option(names = "--viewers", paramLabel = "N", description = "Viewers (default: 200; --quick: 4).")
    Integer viewers;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "How long each viewer plays (default: 60; "
        + "--quick: 8).")
    Integer durationSeconds;

    @Option(names = "--behind", paramLabel = "SECONDS", description = "How far behind the live edge the timeshifted "
        + "viewers open (default: 20; --quick: 3).")
    Integer behindSeconds;

    @Option(names = "--ramp", paramLabel = "SECONDS", description = "Over how long the viewers open (default: 10; "
        + "--quick: 2).")
    Integer rampSeconds;

    @Mixin
    LiveOptions live = new LiveOptions();

    private final PrintStream console = System.out;

    /** Runs the load and writes the results. */
    @Override
    public Integer call() throws Exception {
        int n = recordings != null ? recordings : quick ? 2 : 20;
        int m = viewers != null ? viewers : quick ? 4 : 200;
        int duration = durationSeconds != null ? durationSeconds : quick ? 8 : 60;
        int behind = behindSeconds != null ? behindSeconds : quick ? 3 : 20;
        int ramp = rampSeconds != null ? rampSeconds : quick ? 2 : 10;
        int mib = live.greedyMib(quick);
        int greedy = live.greedy;
        int bitrateKbit = live.bitrateKbit;
        int peakKbit = live.peakKbit;
        Path work = live.work;
        if (!live.valid(quick) || n < 1 || m < 1 || duration < 1 || behind < 1 || ramp < 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--recordings, --viewers, --greedy, "
                + "--duration, --behind and --greedy-size must be at least 1, --ramp at least 0, --bitrate at least "
                + "100 kbit/s and --peak at least --bitrate, --greedy-nice 0 to 19");
        }
        NanoClock clock = SystemClocks.nanoClock();
        long startedNs = clock.nanoTime();
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("recordings", n);
        settings.put("viewers", m);
        settings.put("viewersBehindSeconds", behind);
        settings.put("viewingSeconds", duration);
        settings.put("rampSeconds", ramp);
        settings.put("greedyReaders", greedy);
        settings.put("greedyFileMiB", mib);
        settings.put("bitrateKbit", bitrateKbit);
        settings.put("declaredPeakKbit", peakKbit);
        settings.put("quick", quick);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        console.printf(Locale.ROOT, "live-capacity: %d recordings of %d kbit/s, %d viewers (half live, half %d s "
            + "behind) for %d s, %d greedy readers%n", n, bitrateKbit, m, behind, duration, greedy);
        Files.createDirectories(work);
        Files.createDirectories(out);
        long recordNs = (behind + 1 + ramp + duration) * LiveRig.SECOND_NS + TAIL_NS;
        int clipSeconds = (int) (recordNs / LiveRig.SECOND_NS) + 5;
        Path clip = Clip.makeLive(work.resolve("clips"), bitrateKbit * 1000L, clipSeconds);
        FileSet big = FileSet.make(work.resolve(String.format(Locale.ROOT, "greedy-%dx%dMiB", greedy, mib)), greedy,
            mib * MIB, 0, 14);
        Path data = LiveRig.library(work, big, console);
        String stamp = Long.toString(SystemClocks.epochClock().time());
        LiveCapacityReport report;
        try (ServeProcess rondo = RondoCheckout.serve(data, false, List.of(), work.resolve("rondo-serve.log"),
            clock)) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                names.add("live/capacity-" + stamp + "-" + i + ".mp4");
            }
            LiveRig.Recordings recorded = LiveRig.Recordings.publish(rondo, data, names, peakKbit * 1000L, clock);
            console.printf(Locale.ROOT, "live-capacity: %d recordings accepted, %d refused%n",
                recorded.publishers().size(), recorded.refused());
            LiveFeed feed = LiveFeed.of(clip, clipSeconds * LiveRig.SECOND_NS, TimeshiftPhases.SLICE_NS,
                recorded.roundNs());
            long startNs = clock.nanoTime() + LEAD_NS;
            long endNs = startNs + recordNs;
            recorded.start(feed, startNs, endNs);
            GreedyProcess greedyRun = new GreedyProcess(live.greedyNice, work, rondo.host(), rondo.httpPort(),
                LiveRig.greedyPaths(big, greedy), endNs, "live-capacity", clock);
            DelayLog lateness = new DelayLog();
            DelayLog[] behindLive = {new DelayLog(), new DelayLog()};
            LoadSummary summary = null;
            if (!recorded.publishers().isEmpty()) {
                PacedReader.parkingOn(clock::nanoTime).sleepUntil(startNs + (behind + 1) * LiveRig.SECOND_NS);
                summary = view(rondo, recorded, m, behind * LiveRig.SECOND_NS, ramp * LiveRig.SECOND_NS,
                    duration * LiveRig.SECOND_NS, lateness, behindLive, clock);
            }
            recorded.join();
            greedyRun.stop();
            Map<String, Object> admin = AdminLive.read(rondo);
            List<String> deleteFailures = LiveRig.delete(rondo, recorded.names());
            report = new LiveCapacityReport(settings, recorded, summary, lateness, behindLive, greedyRun, admin,
                deleteFailures, clock.nanoTime() - startedNs);
        }
        report.write(out);
        console.print(report.text());
        console.printf(Locale.ROOT, "wrote %s, %s and %s%n", out.resolve(LiveCapacityReport.JSON),
            out.resolve(LiveCapacityReport.MARKDOWN), out.resolve(LiveCapacityReport.PNG));
        return 0;
    }

    /**
     * The viewers: the {@code i}-th watches recording {@code (i / 2) mod accepted}, opened FROM_LIVE:
     * at its live edge (0 behind) when {@code i} is even, {@code behindNs} behind it when odd; each
     * DATA's arrival after its deadline goes to {@code lateness}, and an edge viewer's arrival after
     * the bytes that complete its fragment were sent (both on {@code clock}) to {@code behindLive[0]},
     * and to {@code behindLive[1]} but for each viewer's first DATA (the newest fragment, already cut
     * when it opened).
     */
    private LoadSummary view(ServeProcess rondo, LiveRig.Recordings recorded, int viewers, long behindNs,
                             long rampNs, long durationNs, DelayLog lateness, DelayLog[] behindLive, NanoClock clock)
        throws InterruptedException {
        List<PacedPublisher> publishers = recorded.publishers();
        List<String> names = recorded.names();
        LoadSettings load = new LoadSettings(rondo.host(), rondo.streamPort(), names.get(0), viewers, rampNs,
            durationNs, new ClientProfile(4 * MIB, 16 * MIB), false, 2, index -> new LoadSettings.Target(
                names.get((index / 2) % names.size()), index % 2 == 0 ? 0 : behindNs, true));
        LoadRun run = new LoadRun(load, clock::nanoTime, console);
        boolean[] first = new boolean[viewers];
        run.listen(new FragmentListener() {
            @Override
            public void fragment(int stream, long fragmentIndex, long arrivalNs, long dueNs, long fragmentNs,
                                 int bytes) {
                lateness.record(arrivalNs - dueNs, bytes);
                long sentNs = publishers.get((stream / 2) % names.size()).fragmentSentNs(fragmentIndex);
                if (stream % 2 == 0 && sentNs != 0) {
                    behindLive[0].record(arrivalNs - sentNs, bytes);
                    if (first[stream]) {
                        behindLive[1].record(arrivalNs - sentNs, bytes);
                    }
                }
                first[stream] = true;
            }

            @Override
            public void ended(int stream) {
                // The summary counts how each stream ended.
            }
        });
        LoadResults results = run.run();
        return LoadSummary.of(load, results);
    }
}
