package io.rondo.benchmarks.preset.jitter;

import io.rondo.benchmarks.load.greedy.GreedyProcess;
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
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Nginx;
import io.rondo.benchmarks.rig.RondoCheckout;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * figure14's phases, one server each: Rondo's admitted streams read as rwrt reads them (the
 * stream protocol's fragments, block by block, each when its media is due), or nginx serving the
 * clip to paced Range readers; each beside the same greedy downloads of the same large files.
 */
final class JitterPhases {

    private static final long MIB = 1024L * 1024;
    private static final long SECOND_NS = JitterSettings.SECOND_NS;
    /** How long past its readers' end a Rondo stream keeps playing before its player CLOSEs it. */
    private static final long CLOSE_AFTER_NS = 3 * SECOND_NS;
    /** How long a Rondo reader waits for its stream's first DATA. */
    private static final long FIRST_DATA_LIMIT_NS = 30 * SECOND_NS;
    /** How long the paced reads of a best-effort stream wait before their first read: one round, as Rondo's. */
    private static final long FIRST_READ_AFTER_NS = SECOND_NS;

    private final Path work;
    private final PrintStream console;
    private final NanoClock clock;

    /**
     * @param work where the servers' and greedy readers' logs go
     * @param console where a line says which phase runs
     * @param clock the clock reads are paced and timed on
     */
    JitterPhases(Path work, PrintStream console, NanoClock clock) {
        this.work = work;
        this.console = console;
        this.clock = clock;
    }

    Phase rondo(JitterSettings s, Path library, Path www, FileSet big, List<String> cacheNotes)
        throws IOException, InterruptedException {
        cacheNotes.add("rondo: " + dropCaches(s));
        console.println("figure14: phase rondo (its measured disk profile): " + s.streams() + " streams, " + s.greedy()
            + " greedy readers, " + s.durationSeconds() + " s");
        try (ServeProcess rondo = RondoCheckout.serve(library, false, List.of(), work.resolve("rondo-serve.log"),
            clock)) {
            long startNs = clock.nanoTime();
            long readersEndNs = startNs + s.rampNs() + s.durationNs();
            LoadSettings load = new LoadSettings(rondo.host(), rondo.streamPort(), JitterPreset.CLIP, s.streams(),
                s.rampNs(), s.durationNs() + CLOSE_AFTER_NS, new ClientProfile(4 * MIB, 16 * MIB), false, 1);
            LoadRun run = new LoadRun(load, clock::nanoTime, null);
            FragmentSource[] sources = new FragmentSource[s.streams()];
            for (int i = 0; i < s.streams(); i++) {
                sources[i] = new FragmentSource(s.blockBytes());
            }
            run.listen(new FragmentListener() {
                @Override
                public void fragment(int stream, long fragmentIndex, long arrivalNs, long dueNs, long durationNs,
                                     int bytes) {
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
            for (int i = 0; i < s.streams(); i++) {
                FragmentSource source = sources[i];
                int index = i;
                readers.add(start("figure14-rondo-stream-" + i, () -> {
                    try {
                        long firstDueNs = source.firstDueNs(FIRST_DATA_LIMIT_NS + s.rampNs());
                        if (firstDueNs < 0) {
                            paced.failed("stream " + index + " delivered no DATA (see the Rondo load summary)");
                            return;
                        }
                        PacedReader reader = new PacedReader(source, clock::nanoTime,
                            PacedReader.parkingOn(clock::nanoTime), paced.pacedReads());
                        reader.run(firstDueNs, Math.min(readersEndNs, firstDueNs + s.durationNs()));
                        paced.streamEnded(reader.interarrival());
                    } catch (InterruptedException | IOException e) {
                        paced.failed("stream " + index + ": " + e);
                    }
                }));
            }
            GreedyProcess greedyRun = new GreedyProcess(s.greedyNice(), work, rondo.host(), rondo.httpPort(),
                greedyPaths(s, big), readersEndNs, "rondo", clock);
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
            extra.put(JitterPreset.STREAMS_CUT_SHORT, cutShort);
            extra.put("rondoStreamLoad", summary.json());
            return new Phase("rondo", true, paced, greedyRun.log(), greedyRun.bytes(), greedyRun.elapsedNs(),
                summary.admitted(), summary.lateFragments(),
                dataJitterCount > 0 ? dataJitterSum / dataJitterCount : Double.NaN, waited, extra);
        }
    }

    Phase nginx(JitterSettings s, Nginx.Variant variant, Path www, Path clip, FileSet big,
                             List<String> cacheNotes) throws IOException, InterruptedException {
        cacheNotes.add(variant.label() + ": " + dropCaches(s));
        console.println("figure14: phase " + variant.label() + ": " + s.streams() + " paced range readers, "
            + s.greedy() + " greedy readers, " + s.durationSeconds() + " s");
        try (Nginx nginx = Nginx.start(www, variant, work.resolve(variant.label()), clock)) {
            String host = nginx.address().getHostString();
            int port = nginx.address().getPort();
            long clipBytes = Files.size(clip);
            double bytesPerSecond = (double) clipBytes / s.clipSeconds();
            long startNs = clock.nanoTime();
            long readersEndNs = startNs + s.rampNs() + s.durationNs();
            DelayLog paced = new DelayLog();
            List<Thread> readers = new ArrayList<>();
            List<HttpConnection> connections = new ArrayList<>();
            for (int i = 0; i < s.streams(); i++) {
                HttpConnection connection = new HttpConnection(host, port);
                connections.add(connection);
                long firstDueNs = startNs + s.rampNs() * i / s.streams() + FIRST_READ_AFTER_NS;
                RangeSource source = new RangeSource(connection, "/" + JitterPreset.CLIP, clipBytes, s.blockBytes(),
                    bytesPerSecond, 0);
                int index = i;
                readers.add(start("figure14-" + variant.label() + "-stream-" + i, () -> {
                    PacedReader reader = new PacedReader(source, clock::nanoTime,
                        PacedReader.parkingOn(clock::nanoTime), paced.pacedReads());
                    try {
                        reader.run(firstDueNs, Math.min(readersEndNs, firstDueNs + s.durationNs()));
                    } catch (InterruptedException | IOException e) {
                        paced.failed("stream " + index + ": " + e);
                    }
                    paced.streamEnded(reader.interarrival());
                }));
            }
            GreedyProcess greedyRun = new GreedyProcess(s.greedyNice(), work, host, port, greedyPaths(s, big),
                readersEndNs, variant.label(), clock);
            joinAll(readers);
            greedyRun.stop();
            connections.forEach(HttpConnection::close);
            return new Phase(variant.label(), false, paced, greedyRun.log(), greedyRun.bytes(), greedyRun.elapsedNs(),
                s.streams(), -1, Double.NaN, -1, Map.of());
        }
    }

    /**
     * Writes the dirty pages and drops the page cache, so each phase reads from the disk: what
     * the system allowed, in words for the results.
     */
    static String dropCaches(JitterSettings s) {
        if (!s.dropCaches()) {
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

    /** One URL path a greedy reader, each a file of its own. */
    private static List<String> greedyPaths(JitterSettings s, FileSet big) {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < s.greedy(); i++) {
            paths.add("/" + big.names().get(i % big.count()));
        }
        return paths;
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
