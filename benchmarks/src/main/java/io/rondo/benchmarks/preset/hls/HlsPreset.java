package io.rondo.benchmarks.preset.hls;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.rig.Clip;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Nginx;
import io.rondo.benchmarks.rig.RondoCheckout;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The HLS target on this machine: N concurrent HLS sessions of 2 Mbit/s clips, each
 * fetching its parts' byte ranges in real time from Rondo (a session is a stream there: admitted,
 * its next part read ahead each round), beside nginx serving the same stored copies to the same
 * clients asking for the same byte ranges on the same schedule without a playlist, both with and
 * without eight greedy downloaders on the same disk. Each part's response time is measured from
 * its request to its last byte; a part is late when that exceeds its own duration, the round it
 * plays for.
 */
@Command(name = "hls", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "HLS sessions' part GETs from Rondo beside nginx serving the same byte ranges, with and without greedy "
            + "downloaders.",
        "",
        "Makes --clips fMP4 clips (H.264 + AAC, a keyframe a second) with ffmpeg, ingests them and --greedy large "
            + "files into Rondo, and lays Rondo's stored copies out for nginx. Each phase runs --sessions HLS "
            + "clients, each opening at a seeded random moment of the ramp: on Rondo, the multivariant playlist "
            + "(a 503 counts as refused), the media playlist, then the init section and each part's byte range, "
            + "part k at the start plus k parts; on nginx, the same ranges of the same files on the same schedule. "
            + "Every answer must be a 206 of exactly the bytes asked for. Phases: nginx, Rondo, then both again "
            + "beside --greedy downloaders. Results go to --out as hls.json, hls.md, hls.csv and hls.png; "
            + "--quick exits 1 on any failed answer."
    })
public final class HlsPreset implements Callable<Integer> {

    private static final long MIB = 1024L * 1024;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results/hls",
        description = "Where hls.json, .md, .csv and .png go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "bench-work/hls",
        description = "Where the clips, the large files, Rondo's library and nginx's folder are made and kept for "
            + "the next run with the same parameters (default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--quick", description = "A smoke run of about a minute on the same code path: 40 sessions "
        + "over 2 clips playing 6 s, 8 greedy downloaders of 8 MiB files, 6 s live; exits 1 on any failed answer.")
    boolean quick;

    @Option(names = "--sessions", paramLabel = "N", description = "Concurrent HLS sessions (default: 500).")
    Integer sessions;

    @Option(names = "--clips", paramLabel = "N", description = "Clips the sessions play, session i clip i mod N "
        + "(default: 10).")
    Integer clips;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "How much media each session plays "
        + "(default: 60).")
    Integer durationSeconds;

    @Option(names = "--ramp", paramLabel = "SECONDS", description = "Over how long the sessions open (default: 10).")
    Integer rampSeconds;

    @Option(names = "--greedy", paramLabel = "N", description = "Greedy downloaders in the second pair of phases; "
        + "0 runs only the first pair (default: 8).")
    Integer greedy;

    @Option(names = "--greedy-size", paramLabel = "MIB", description = "Each greedy downloader's file, MiB "
        + "(default: 256).")
    Integer greedyMib;

    @Option(names = "--bitrate", paramLabel = "KBIT", defaultValue = "2000",
        description = "The clips' video bit rate, kbit/s (default: ${DEFAULT-VALUE}).")
    int bitrateKbit;

    @Option(names = "--nginx", paramLabel = "VARIANT", defaultValue = "sendfile",
        description = "How nginx reads: sendfile (the page cache, as nginx is usually run) or directio "
            + "(default: ${DEFAULT-VALUE}).")
    String variant;

    @Option(names = "--greedy-nice", paramLabel = "N", defaultValue = "19",
        description = "The greedy downloaders' process's nice level (default: ${DEFAULT-VALUE}).")
    int greedyNice;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "26",
        description = "The seed of the sessions' start moments (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--live", paramLabel = "SECONDS", description = "How long a live recording is published and "
        + "followed by an LL-HLS client with blocking reloads, for the live delay; 0 for none (default: 60; "
        + "--quick: 6).")
    Integer liveSeconds;

    @Option(names = "--rondo-java-opts", paramLabel = "FLAGS", split = " ",
        description = "Extra flags for Rondo's JVM, e.g. -Xmx2g.")
    List<String> rondoJavaOptions = new ArrayList<>();

    private final PrintStream console = System.out;

    /**
     * Runs the preset; see {@code --help}.
     *
     * @param args its options
     */
    public static void main(String[] args) {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        System.exit(new CommandLine(new HlsPreset()).execute(args));
    }

    /** Runs every phase and writes the results; a server that cannot start ends the run with its reason. */
    @Override
    public Integer call() throws Exception {
        HlsSettings s = settings();
        NanoClock clock = SystemClocks.nanoClock();
        long startedNs = clock.nanoTime();
        console.printf(Locale.ROOT, "hls: %d sessions over %d clips of %d kbit/s, %d s each, %d greedy "
            + "downloaders of %d MiB; Rondo beside %s%n", s.sessions(), s.clips(), s.bitrateKbit(),
            s.durationSeconds(), s.greedy(), s.greedyMib(), s.variant().label());
        Files.createDirectories(work);
        Files.createDirectories(out);
        List<Path> clipFiles = new ArrayList<>();
        for (int i = 0; i < s.clips(); i++) {
            clipFiles.add(Clip.makeLive(work.resolve("clips"), s.bitrateKbit() * 1000L, s.clipSeconds(),
                HlsSettings.toneHz(i)));
        }
        FileSet big = FileSet.make(work.resolve(String.format(Locale.ROOT, "greedy-%dx%dMiB", s.greedy(),
            s.greedyMib())), Math.max(1, s.greedy()), s.greedyMib() * MIB, 0, 26);
        HlsRig rig = new HlsRig(work, console);
        Path library = rig.library(clipFiles, big);
        List<HlsPhase> phases = new ArrayList<>();
        DelayLog live = null;
        HlsPhases runner = new HlsPhases(s, work, console, clock);
        try (ServeProcess rondo = RondoCheckout.serve(library, false, rondoJavaOptions, work.resolve(
            "rondo-serve.log"), clock)) {
            HlsRig.Objects objects = rig.objects(rondo, s.clips(), big);
            HlsMeters meters = new HlsMeters(rondo);
            try (Nginx nginx = Nginx.start(objects.www(), s.variant(), work.resolve(s.variant().label()), clock)) {
                String nginxHost = nginx.address().getHostString();
                int nginxPort = nginx.address().getPort();
                List<List<String>> greedyRuns = new ArrayList<>(List.of(List.of()));
                if (s.greedy() > 0) {
                    greedyRuns.add(big.names().stream().map(name -> "/" + name).toList());
                }
                // nginx first: the sessions that read the plan end meanwhile, as each Rondo phase's do before the next.
                for (List<String> greedyPaths : greedyRuns) {
                    phases.add(runner.run(s.variant().label(), nginxHost, nginxPort, objects.nginx(), null,
                        greedyPaths));
                    phases.add(runner.run("rondo", rondo.host(), rondo.httpPort(), objects.rondo(), meters,
                        greedyPaths));
                }
            }
            if (s.liveSeconds() > 0) {
                runner.drain(meters);
                live = live(s, rondo, library, clock);
            }
        }
        HlsReport report = new HlsReport(s.describe(), s.greedy(), phases, live, clock.nanoTime() - startedNs);
        report.write(out);
        console.print(report.markdown());
        console.printf(Locale.ROOT, "wrote %s, %s, %s and %s%n", out.resolve(HlsReport.JSON),
            out.resolve(HlsReport.MARKDOWN), out.resolve(HlsReport.CSV), out.resolve(HlsReport.PNG));
        long failed = report.failedAnswers();
        if (quick && failed > 0) {
            console.printf(Locale.ROOT, "FAILED: %d answers were not what was asked for (a status or a length "
                + "other than asked, or none); see %s%n", failed, out.resolve(HlsReport.MARKDOWN));
            return 1;
        }
        return 0;
    }

    /** The live delay: a recording of the live clip published to {@code rondo} and followed with LL-HLS. */
    private DelayLog live(HlsSettings s, ServeProcess rondo, Path library, NanoClock clock) throws Exception {
        int clipSeconds = s.liveSeconds() + 5;
        Path clip = Clip.makeLive(work.resolve("clips"), s.bitrateKbit() * 1000L, clipSeconds);
        EpochClock epoch = SystemClocks.epochClock();
        String name = String.format(Locale.ROOT, "live/hls-%d.mp4", epoch.time());
        console.printf(Locale.ROOT, "hls: live: %s published in real time for %d s, followed with blocking "
            + "reloads%n", name, s.liveSeconds());
        return new LiveDelay(clock, epoch).run(rondo, library, clip, clipSeconds, name, s.liveSeconds(),
            s.bitrateKbit() * 1000L * 2);
    }

    /** The run's parameters, --quick's or the defaults where an option was not given. */
    HlsSettings settings() {
        Nginx.Variant chosen;
        try {
            chosen = Nginx.Variant.parse(variant);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--nginx: " + e.getMessage(), e);
        }
        HlsSettings s = new HlsSettings(
            sessions != null ? sessions : quick ? 40 : 500,
            clips != null ? clips : quick ? 2 : 10,
            durationSeconds != null ? durationSeconds : quick ? 6 : 60,
            rampSeconds != null ? rampSeconds : quick ? 1 : 10,
            greedy != null ? greedy : 8,
            greedyMib != null ? greedyMib : quick ? 8 : 256,
            liveSeconds != null ? liveSeconds : quick ? 6 : 60,
            bitrateKbit, greedyNice, chosen, seed, quick);
        if (s.sessions() < 1 || s.clips() < 1 || s.durationSeconds() < 1 || s.rampSeconds() < 0 || s.greedy() < 0
            || s.liveSeconds() < 0 || s.greedyMib() < 1 || s.bitrateKbit() < 100 || s.greedyNice() < 0
            || s.greedyNice() > 19) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--sessions, --clips, --duration and "
                + "--greedy-size must be at least 1, --ramp, --greedy and --live at least 0, --bitrate at least "
                + "100 kbit/s, --greedy-nice 0 to 19");
        }
        return s;
    }
}
