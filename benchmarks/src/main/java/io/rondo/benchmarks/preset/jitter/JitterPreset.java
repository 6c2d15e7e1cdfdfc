package io.rondo.benchmarks.preset.jitter;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.rondo.benchmarks.load.greedy.GreedyLoad;
import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.load.paced.FragmentSource;
import io.rondo.benchmarks.load.paced.PacedReader;
import io.rondo.benchmarks.load.paced.RangeSource;
import io.rondo.benchmarks.load.stream.FragmentListener;
import io.rondo.benchmarks.load.stream.LoadResults;
import io.rondo.benchmarks.load.stream.LoadRun;
import io.rondo.benchmarks.load.stream.LoadSettings;
import io.rondo.benchmarks.load.stream.LoadSummary;
import io.rondo.benchmarks.rig.Clip;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Nginx;
import io.rondo.benchmarks.rig.RondoProcess;
import io.rondo.client.protocol.ClientProfile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

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

    private static final long MIB = 1024L * 1024;
    private static final String CLIP = "clip.mp4";
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    /** How long past its readers' end a Rondo stream keeps playing before its player CLOSEs it. */
    private static final long CLOSE_AFTER_NS = 3 * SECOND_NS;
    /** How long a Rondo reader waits for its stream's first DATA. */
    private static final long FIRST_DATA_LIMIT_NS = 30 * SECOND_NS;
    /** How long the paced reads of a best-effort stream wait before their first read: one round, as Rondo's. */
    private static final long FIRST_READ_AFTER_NS = SECOND_NS;
    /** How long past the phase's end the greedy readers' process may take to stop and write its results. */
    private static final long GREEDY_STOP_NS = 30 * SECOND_NS;

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

    private final LongSupplier nanoClock = System::nanoTime;
    private PrintStream console = System.out;

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
        Settings settings = settings();
        long startedNs = nanoClock.getAsLong();
        console.printf(Locale.ROOT, "figure14: %d streams, %d greedy readers of %d MiB, %d s a phase, servers rondo,"
                + " %s%n", settings.streams, settings.greedy, settings.greedyMib, settings.durationSeconds,
            String.join(", ", settings.variants.stream().map(Nginx.Variant::label).toList()));
        Files.createDirectories(work);
        Files.createDirectories(out);
        Path clip = clip(settings);
        FileSet big = FileSet.make(work.resolve(String.format(Locale.ROOT, "greedy-%dx%dMiB", settings.greedy,
            settings.greedyMib)), settings.greedy, settings.greedyMib * MIB, 0, 14);
        Path www = served(clip, big);
        Path library = library(clip, big, www);
        List<Phase> phases = new ArrayList<>();
        List<String> cacheNotes = new ArrayList<>();
        phases.add(rondoPhase(settings, library, www, big, cacheNotes));
        for (Nginx.Variant variant : settings.variants) {
            phases.add(nginxPhase(settings, variant, www, clip, big, cacheNotes));
        }
        long runtimeNs = nanoClock.getAsLong() - startedNs;
        Figure14Report report = new Figure14Report(settings.describe(), phases, cacheNotes, runtimeNs);
        report.write(out);
        console.print(report.text());
        console.printf(Locale.ROOT, "wrote %s, %s and %s%n", out.resolve(Figure14Report.JSON),
            out.resolve(Figure14Report.MARKDOWN), out.resolve(Figure14Report.PNG));
        return 0;
    }

    /** The run's parameters, --quick's or the defaults where an option was not given. */
    Settings settings() {
        List<Nginx.Variant> chosen = new ArrayList<>();
        List<String> names = variants != null ? variants
            : quick ? List.of("directio") : List.of("directio", "sendfile");
        for (String name : names) {
            chosen.add(Nginx.Variant.parse(name));
        }
        Settings s = new Settings(
            streams != null ? streams : quick ? 2 : 8,
            greedy != null ? greedy : 8,
            greedyMib != null ? greedyMib : quick ? 8 : 256,
            durationSeconds != null ? durationSeconds : quick ? 5 : 60,
            blockBytes, bitrateKbit, greedyNice, List.copyOf(chosen), !keepCaches, quick);
        if (s.streams < 1 || s.greedy < 0 || s.greedyMib < 1 || s.durationSeconds < 1 || s.blockBytes < 1
            || s.bitrateKbit < 100 || s.greedyNice < 0 || s.greedyNice > 19) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--streams, --greedy-size and "
                + "--duration must be at least 1, --greedy at least 0, --bitrate at least 100 kbit/s, "
                + "--greedy-nice 0 to 19");
        }
        return s;
    }

    /** What a run does. */
    record Settings(int streams, int greedy, int greedyMib, int durationSeconds, int blockBytes, int bitrateKbit,
                    int greedyNice, List<Nginx.Variant> variants, boolean dropCaches, boolean quick) {

        long durationNs() {
            return TimeUnit.SECONDS.toNanos(durationSeconds);
        }

        /** Over how long the streams start, evenly: half a second a stream, at most 5 s. */
        long rampNs() {
            return Math.min(5 * SECOND_NS, streams * SECOND_NS / 2);
        }

        /** The clip outlasts every stream's reads, so no stream ends early. */
        int clipSeconds() {
            return durationSeconds + (int) (rampNs() / SECOND_NS) + 15;
        }

        Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("streams", streams);
            m.put("greedyReaders", greedy);
            m.put("greedyFileMiB", greedyMib);
            m.put("durationSeconds", durationSeconds);
            m.put("rampSeconds", rampNs() / 1e9);
            m.put("blockBytes", blockBytes);
            m.put("clip", String.format(Locale.ROOT, "H.264 640x360 25 fps, %d kbit/s, GOP 250, %d s",
                bitrateKbit, clipSeconds()));
            m.put("nginxVariants", variants.stream().map(Nginx.Variant::label).toList());
            m.put("greedyNice", greedyNice);
            m.put("dropCaches", dropCaches);
            m.put("quick", quick);
            m.put("cores", Runtime.getRuntime().availableProcessors());
            return m;
        }
    }

    // --- The files -------------------------------------------------------------------------------------------

    /** The test clip, made with ffmpeg once per set of parameters: a long GOP, as people's media has. */
    private Path clip(Settings s) throws IOException {
        return Clip.make(work.resolve("clips"), s.bitrateKbit * 1000L, s.clipSeconds());
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
        if (Files.exists(data)) {
            try (Stream<Path> walk = Files.walk(data)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(data);
        console.println("figure14: ingesting the clip and " + big.count() + " files into Rondo's library " + data);
        List<Path> files = new ArrayList<>();
        files.add(www.resolve(CLIP));
        files.addAll(big.paths());
        RondoProcess.ingest(data, files, work.resolve("rondo-ingest.log"));
        Files.writeString(done, clip.getFileName() + " " + big.folder().getFileName(), StandardCharsets.UTF_8);
        return data;
    }

    // --- The phases ------------------------------------------------------------------------------------------

    private Phase rondoPhase(Settings s, Path library, Path www, FileSet big, List<String> cacheNotes)
        throws IOException, InterruptedException {
        cacheNotes.add("rondo: " + dropCaches(s));
        console.println("figure14: phase rondo (its measured disk profile): " + s.streams + " streams, " + s.greedy
            + " greedy readers, " + s.durationSeconds + " s");
        try (RondoProcess rondo = RondoProcess.serve(library, false, List.of(), work.resolve("rondo-serve.log"))) {
            long startNs = nanoClock.getAsLong();
            long readersEndNs = startNs + s.rampNs() + s.durationNs();
            LoadSettings load = new LoadSettings(rondo.host(), rondo.streamPort(), CLIP, s.streams, s.rampNs(),
                s.durationNs() + CLOSE_AFTER_NS, new ClientProfile(4 * MIB, 16 * MIB), false, 1);
            LoadRun run = new LoadRun(load, nanoClock, null);
            FragmentSource[] sources = new FragmentSource[s.streams];
            for (int i = 0; i < s.streams; i++) {
                sources[i] = new FragmentSource(s.blockBytes);
            }
            run.listen(new FragmentListener() {
                @Override
                public void fragment(int stream, long arrivalNs, long dueNs, long durationNs, int bytes) {
                    sources[stream].offer(new FragmentSource.Fragment(arrivalNs, dueNs, durationNs, bytes));
                }

                @Override
                public void ended(int stream) {
                    sources[stream].end();
                }
            });
            LoadResults[] results = new LoadResults[1];
            Thread loadThread = start("figure14-rondo-load", () -> {
                try {
                    results[0] = run.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            DelayLog paced = new DelayLog();
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < s.streams; i++) {
                FragmentSource source = sources[i];
                int index = i;
                readers.add(start("figure14-rondo-stream-" + i, () -> {
                    try {
                        long firstDueNs = source.firstDueNs(FIRST_DATA_LIMIT_NS + s.rampNs());
                        if (firstDueNs < 0) {
                            paced.failed("stream " + index + " delivered no DATA (see the Rondo load summary)");
                            return;
                        }
                        PacedReader reader = new PacedReader(source, nanoClock, JitterPreset::sleepUntil,
                            JitterPreset.recordInto(paced));
                        reader.run(firstDueNs, Math.min(readersEndNs, firstDueNs + s.durationNs()));
                        paced.streamEnded(reader.interarrival());
                    } catch (InterruptedException | IOException e) {
                        paced.failed("stream " + index + ": " + e);
                    }
                }));
            }
            Greedy greedyRun = new Greedy(s, rondo.host(), rondo.httpPort(), big, readersEndNs, "rondo");
            joinAll(readers);
            greedyRun.stop();
            run.stop();
            loadThread.join();
            LoadSummary summary = LoadSummary.of(load, results[0]);
            double dataJitterSum = 0;
            int dataJitterCount = 0;
            long waited = 0;
            long cutShort = 0;
            for (FragmentSource source : sources) {
                waited += source.waits();
                cutShort += source.endReached() ? 1 : 0;
                double j = source.dataJitterNs();
                if (!Double.isNaN(j)) {
                    dataJitterSum += j;
                    dataJitterCount++;
                }
            }
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put(STREAMS_CUT_SHORT, cutShort);
            extra.put("rondoStreamLoad", summary.json());
            return new Phase("rondo", true, paced, greedyRun.log, greedyRun.bytes(), greedyRun.elapsedNs(),
                summary.admitted(), summary.lateFragments(),
                dataJitterCount > 0 ? dataJitterSum / dataJitterCount : Double.NaN, waited, extra);
        }
    }

    private Phase nginxPhase(Settings s, Nginx.Variant variant, Path www, Path clip, FileSet big,
                             List<String> cacheNotes) throws IOException, InterruptedException {
        cacheNotes.add(variant.label() + ": " + dropCaches(s));
        console.println("figure14: phase " + variant.label() + ": " + s.streams + " paced range readers, " + s.greedy
            + " greedy readers, " + s.durationSeconds + " s");
        try (Nginx nginx = Nginx.start(www, variant, work.resolve(variant.label()))) {
            String host = nginx.address().getHostString();
            int port = nginx.address().getPort();
            long clipBytes = Files.size(clip);
            double bytesPerSecond = (double) clipBytes / s.clipSeconds();
            long startNs = nanoClock.getAsLong();
            long readersEndNs = startNs + s.rampNs() + s.durationNs();
            DelayLog paced = new DelayLog();
            List<Thread> readers = new ArrayList<>();
            List<HttpConnection> connections = new ArrayList<>();
            for (int i = 0; i < s.streams; i++) {
                HttpConnection connection = new HttpConnection(host, port);
                connections.add(connection);
                long firstDueNs = startNs + s.rampNs() * i / s.streams + FIRST_READ_AFTER_NS;
                RangeSource source = new RangeSource(connection, "/" + CLIP, clipBytes, s.blockBytes, bytesPerSecond,
                    0);
                int index = i;
                readers.add(start("figure14-" + variant.label() + "-stream-" + i, () -> {
                    PacedReader reader = new PacedReader(source, nanoClock, JitterPreset::sleepUntil,
                        JitterPreset.recordInto(paced));
                    try {
                        reader.run(firstDueNs, Math.min(readersEndNs, firstDueNs + s.durationNs()));
                    } catch (InterruptedException | IOException e) {
                        paced.failed("stream " + index + ": " + e);
                    }
                    paced.streamEnded(reader.interarrival());
                }));
            }
            Greedy greedyRun = new Greedy(s, host, port, big, readersEndNs, variant.label());
            joinAll(readers);
            greedyRun.stop();
            connections.forEach(HttpConnection::close);
            return new Phase(variant.label(), false, paced, greedyRun.log, greedyRun.bytes(), greedyRun.elapsedNs(),
                s.streams, -1, Double.NaN, -1, Map.of());
        }
    }

    /**
     * The greedy readers of a phase, each on a file of its own as papers/002's "separate files", in
     * a {@link GreedyLoad} process under {@code nice -n --greedy-nice}.
     */
    private final class Greedy {
        private final DelayLog log = new DelayLog();
        private final Process process;
        private final Path results;
        private final long endNs;
        private long bytes;
        private long elapsedNs;

        Greedy(Settings s, String host, int port, FileSet big, long endNs, String phase) throws IOException {
            this.endNs = endNs;
            this.results = work.resolve("greedy-" + phase + ".txt");
            Files.deleteIfExists(results);
            List<String> command = new ArrayList<>(List.of("nice", "-n", Integer.toString(s.greedyNice),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), GreedyLoad.class.getName(), host, Integer.toString(port),
                Long.toString(Math.max(0, endNs - nanoClock.getAsLong())), results.toString()));
            for (int i = 0; i < s.greedy; i++) {
                command.add("/" + big.names().get(i % big.count()));
            }
            process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(work.resolve("greedy-" + phase + ".log").toFile()).start();
        }

        long bytes() {
            return bytes;
        }

        long elapsedNs() {
            return elapsedNs;
        }

        /** Waits for the process, which stops by itself at the phase's end, and reads what it saw. */
        void stop() throws InterruptedException, IOException {
            long waitNs = Math.max(0, endNs - nanoClock.getAsLong()) + GREEDY_STOP_NS;
            if (!process.waitFor(waitNs, TimeUnit.NANOSECONDS)) {
                process.destroyForcibly();
                throw new IOException("the greedy readers did not stop; see " + work.resolve("greedy-*.log"));
            }
            if (process.exitValue() != 0 || !Files.isRegularFile(results)) {
                throw new IOException("the greedy readers failed (exit " + process.exitValue() + "); see "
                    + work.resolve("greedy-*.log"));
            }
            GreedyLoad.Read read = GreedyLoad.Read.into(results, log);
            bytes = read.bytes();
            elapsedNs = read.elapsedNs();
        }
    }

    // --- Helpers ---------------------------------------------------------------------------------------------

    /**
     * Writes the dirty pages and drops the page cache, so each phase reads from the disk: what
     * the system allowed, in words for the results.
     */
    static String dropCaches(Settings s) {
        if (!s.dropCaches) {
            return "page cache left as it was (--no-drop-caches)";
        }
        try {
            Process sync = new ProcessBuilder("sync").inheritIO().start();
            sync.waitFor(60, TimeUnit.SECONDS);
            Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3\n", StandardCharsets.US_ASCII);
            return "page cache dropped before the phase";
        } catch (IOException e) {
            return "page cache not dropped (" + e.getMessage() + "): run as root for a cold cache";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "page cache not dropped (interrupted)";
        }
    }

    /** A listener that records a read's jitter and its thread's wake-up delay into {@code log}. */
    static PacedReader.ReadListener recordInto(DelayLog log) {
        return (dueNs, wokeNs, doneNs) -> {
            log.record(doneNs - dueNs, 0);
            log.wokeLate(wokeNs - dueNs);
        };
    }

    /** Parks until {@code dueNs} on {@link System#nanoTime()}. */
    static void sleepUntil(long dueNs) throws InterruptedException {
        for (long leftNs = dueNs - System.nanoTime(); leftNs > 0; leftNs = dueNs - System.nanoTime()) {
            LockSupport.parkNanos(leftNs);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join();
        }
    }

    private static Thread start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
