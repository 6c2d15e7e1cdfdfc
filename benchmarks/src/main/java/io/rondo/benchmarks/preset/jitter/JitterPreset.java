package io.rondo.benchmarks.preset.jitter;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.rondo.benchmarks.rig.Clip;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Folders;
import io.rondo.benchmarks.rig.Nginx;
import io.rondo.benchmarks.rig.RondoCheckout;
import io.rondo.scheduler.time.SystemClocks;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * papers/002 (ABISS) Figure 14 on this machine: the jitter of isochronous reads with guarantees
 * against best effort, while eight greedy readers download as fast as they can. Rondo's admitted
 * streams (the stream protocol, the disk's measured profile) and nginx serving the same clip to
 * paced Range readers run one after the other in one run, each beside the same greedy downloads
 * of the same large files, with the page cache dropped before each phase where the system allows.
 * Every stream is read by rwrt's loop ({@link PacedReader}): a read is due when its media is, and
 * its jitter is when it completed minus when it was due. Writes figure14.json, figure14.md and a
 * log-log "fraction of reads later than x" chart, figure14.png.
 */
@Command(name = "figure14", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "papers/002 Figure 14: stream read jitter with guarantees (Rondo) against best effort (nginx), "
            + "under greedy downloaders.",
        "",
        "Phase 1 serves a generated H.264 clip and large random files from Rondo on this machine's disk; --streams "
            + "players stream the clip over the stream protocol while --greedy readers GET the large files whole, "
            + "in a loop, from Rondo's HTTP port. Each later phase does the same with nginx (directio, then "
            + "sendfile) serving the same files, the streams read as best effort by HTTP Range requests paced at "
            + "the clip's rate. Every stream is read as papers/002's rwrt reads: one --block at a time, each when "
            + "its media is due; a read's jitter is its completion minus its due time. The page cache is dropped "
            + "before each phase (as root). Results go to --out as figure14.json, figure14.md and figure14.png."
    })
public final class JitterPreset implements Callable<Integer> {

    /** The clip's name, in nginx's folder and in Rondo's library. */
    static final String CLIP = "clip.mp4";

    private static final long MIB = 1024L * 1024;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results/figure14",
        description = "Where figure14.json, .md and .png go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "bench-work/figure14",
        description = "Where the clip, the large files and Rondo's library are made and kept for the next run, "
            + "by their parameters (default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--quick", description = "A smoke run of under a minute on the same code path: 2 streams, "
        + "8 greedy readers of 8 MiB files, 5 s a phase, nginx directio only.")
    boolean quick;

    @Option(names = "--streams", paramLabel = "N",
        description = "Paced streams on each server (default: 8, about 2 MB/s of media; papers/002 ran one "
            + "1 MB/s reader). Rondo admits them on its measured disk profile.")
    Integer streams;

    @Option(names = "--greedy", paramLabel = "N", description = "Greedy downloaders on each server (default: 8, as "
        + "papers/002).")
    Integer greedy;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "How long each phase reads (default: 60).")
    Integer durationSeconds;

    @Option(names = "--greedy-size", paramLabel = "MIB", description = "Each greedy reader's file, MiB "
        + "(default: 256).")
    Integer greedyMib;

    @Option(names = "--block", paramLabel = "BYTES", defaultValue = "10240",
        description = "What one paced read takes (default: ${DEFAULT-VALUE}, papers/002's 10 kB blocks).")
    int blockBytes;

    @Option(names = "--bitrate", paramLabel = "KBIT", defaultValue = "2000",
        description = "The clip's video bit rate, kbit/s (default: ${DEFAULT-VALUE}).")
    int bitrateKbit;

    @Option(names = "--nginx", paramLabel = "VARIANT", split = ",",
        description = "The nginx variants to run, directio and/or sendfile (default: directio,sendfile; "
            + "--quick: directio).")
    List<String> variants;

    @Option(names = "--greedy-nice", paramLabel = "N", defaultValue = "19",
        description = "The greedy readers run in a process of their own at this nice level (default: "
            + "${DEFAULT-VALUE}), as papers/002's ran at a lower CPU priority than the paced reader; 0 for the same.")
    int greedyNice;

    @Option(names = "--no-drop-caches", description = "Leave the page cache alone between phases.")
    boolean keepCaches;

    /** The JSON key of the Rondo streams that ended before their paced reads were over. */
    static final String STREAMS_CUT_SHORT = "streamsEndedBeforeTheirReads";

    private final PrintStream console = System.out;

    /**
     * Runs the preset; see {@code --help}.
     *
     * @param args its options
     */
    public static void main(String[] args) {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        System.exit(new CommandLine(new JitterPreset()).execute(args));
    }

    /** Runs every phase and writes the results; a phase that cannot run ends the run with its reason. */
    @Override
    public Integer call() throws Exception {
        JitterSettings settings = settings();
        NanoClock clock = SystemClocks.nanoClock();
        long startedNs = clock.nanoTime();
        console.printf(Locale.ROOT, "figure14: %d streams, %d greedy readers of %d MiB, %d s a phase, servers rondo,"
                + " %s%n", settings.streams(), settings.greedy(), settings.greedyMib(), settings.durationSeconds(),
            String.join(", ", settings.variants().stream().map(Nginx.Variant::label).toList()));
        Files.createDirectories(work);
        Files.createDirectories(out);
        Path clip = clip(settings);
        FileSet big = FileSet.make(work.resolve(String.format(Locale.ROOT, "greedy-%dx%dMiB", settings.greedy(),
            settings.greedyMib())), settings.greedy(), settings.greedyMib() * MIB, 0, 14);
        Path www = served(clip, big);
        Path library = library(clip, big, www);
        List<Phase> phases = new ArrayList<>();
        List<String> cacheNotes = new ArrayList<>();
        JitterPhases run = new JitterPhases(work, console, clock);
        phases.add(run.rondo(settings, library, www, big, cacheNotes));
        for (Nginx.Variant variant : settings.variants()) {
            phases.add(run.nginx(settings, variant, www, clip, big, cacheNotes));
        }
        long runtimeNs = clock.nanoTime() - startedNs;
        Figure14Report report = new Figure14Report(settings.describe(), phases, cacheNotes, runtimeNs);
        report.write(out);
        console.print(report.text());
        console.printf(Locale.ROOT, "wrote %s, %s and %s%n", out.resolve(Figure14Report.JSON),
            out.resolve(Figure14Report.MARKDOWN), out.resolve(Figure14Report.PNG));
        return 0;
    }

    /** The run's parameters, --quick's or the defaults where an option was not given. */
    JitterSettings settings() {
        List<Nginx.Variant> chosen = new ArrayList<>();
        List<String> names = variants != null ? variants
            : quick ? List.of("directio") : List.of("directio", "sendfile");
        for (String name : names) {
            chosen.add(Nginx.Variant.parse(name));
        }
        JitterSettings s = new JitterSettings(
            streams != null ? streams : quick ? 2 : 8,
            greedy != null ? greedy : 8,
            greedyMib != null ? greedyMib : quick ? 8 : 256,
            durationSeconds != null ? durationSeconds : quick ? 5 : 60,
            blockBytes, bitrateKbit, greedyNice, List.copyOf(chosen), !keepCaches, quick);
        if (s.streams() < 1 || s.greedy() < 0 || s.greedyMib() < 1 || s.durationSeconds() < 1 || s.blockBytes() < 1
            || s.bitrateKbit() < 100 || s.greedyNice() < 0 || s.greedyNice() > 19) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--streams, --greedy-size and "
                + "--duration must be at least 1, --greedy at least 0, --bitrate at least 100 kbit/s, "
                + "--greedy-nice 0 to 19");
        }
        return s;
    }

    /** The test clip, made with ffmpeg once per set of parameters: a long GOP, as people's media has. */
    private Path clip(JitterSettings s) throws IOException {
        return Clip.make(work.resolve("clips"), s.bitrateKbit() * 1000L, s.clipSeconds());
    }

    /** The folder nginx serves: links to the clip (as /clip.mp4) and the greedy readers' files. */
    private Path served(Path clip, FileSet big) throws IOException {
        Path www = work.resolve("www-" + clip.getFileName().toString().replace(".mp4", "") + "-"
            + big.folder().getFileName());
        Files.createDirectories(www);
        link(www.resolve(CLIP), clip);
        for (int i = 0; i < big.count(); i++) {
            link(www.resolve(big.names().get(i)), big.path(i));
        }
        return www;
    }

    private static void link(Path link, Path target) throws IOException {
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, target.toAbsolutePath());
    }

    /** Rondo's data folder with the clip and the greedy files ingested, kept for the next run of the same files. */
    private Path library(Path clip, FileSet big, Path www) throws IOException {
        Path data = work.resolve("rondo-" + www.getFileName());
        Path done = data.resolve("figure14-ingested.txt");
        if (Files.isRegularFile(done)) {
            return data;
        }
        Folders.deleteTree(data);
        Files.createDirectories(data);
        console.println("figure14: ingesting the clip and " + big.count() + " files into Rondo's library " + data);
        List<Path> files = new ArrayList<>();
        files.add(www.resolve(CLIP));
        files.addAll(big.paths());
        RondoCheckout.ingest(data, files, work.resolve("rondo-ingest.log"));
        Files.writeString(done, clip.getFileName() + " " + big.folder().getFileName(), StandardCharsets.UTF_8);
        return data;
    }
}
