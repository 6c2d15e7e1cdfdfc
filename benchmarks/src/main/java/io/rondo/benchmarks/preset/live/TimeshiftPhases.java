package io.rondo.benchmarks.preset.live;

import io.rondo.benchmarks.load.greedy.GreedyProcess;
import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.load.live.FsyncWriter;
import io.rondo.benchmarks.load.live.LiveFeed;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The timeshift preset's two phases, papers/002 Section 5.2 on this machine: recordings written
 * while one of them is watched from behind, under greedy readers; first on Rondo (published
 * through the stream protocol, written in the disk's rounds, the viewer a stream of the recording
 * read as rwrt reads), then best effort (the same bytes at the same pace written through the page
 * cache with a fsync a second, the viewer nginx's paced Range reads of the growing file).
 */
final class TimeshiftPhases {

    /** The publishers' and writers' slice: ten a second. */
    static final long SLICE_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long MIB = 1024L * 1024;
    private static final long LEAD_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long CLOSE_AFTER_NS = 3 * LiveRig.SECOND_NS;
    private static final long FIRST_DATA_LIMIT_NS = 30 * LiveRig.SECOND_NS;

    /**
     * What one phase measured.
     *
     * @param server {@code rondo} or nginx's label
     * @param writes each round's (Rondo) or second's (best effort) write latency
     * @param reads the viewer's paced reads' lateness
     * @param greedy the greedy readers, stopped
     * @param extra the phase's own figures
     */
    record Side(String server, DelayLog writes, DelayLog reads, GreedyProcess greedy, Map<String, Object> extra) {
    }

    private final Path work;
    private final PrintStream console;
    private final NanoClock clock;

    TimeshiftPhases(Path work, PrintStream console, NanoClock clock) {
        this.work = work;
        this.console = console;
        this.clock = clock;
    }

    /** Rondo's phase; its feed (cut by the server's round) is kept for the best-effort phase. */
    Side rondo(TimeshiftSettings s, Path clip, Path data, FileSet big, String stamp, LiveFeed[] feedOut)
        throws IOException, InterruptedException {
        console.println("timeshift: phase rondo: " + s.recordings() + " recordings, a viewer " + s.behindSeconds()
            + " s behind, " + s.greedy() + " greedy readers, " + s.durationSeconds() + " s");
        try (ServeProcess rondo = RondoCheckout.serve(data, false, List.of(), work.resolve("rondo-serve.log"),
            clock)) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < s.recordings(); i++) {
                names.add("live/timeshift-" + stamp + "-" + i + ".mp4");
            }
            LiveRig.Recordings recordings = LiveRig.Recordings.publish(rondo, data, names, s.peakKbit() * 1000L,
                clock);
            LiveFeed feed = LiveFeed.of(clip, s.clipSeconds() * LiveRig.SECOND_NS, SLICE_NS, recordings.roundNs());
            feedOut[0] = feed;
            long startNs = clock.nanoTime() + LEAD_NS;
            long endNs = startNs + s.durationNs();
            recordings.start(feed, startNs, endNs);
            GreedyProcess greedy = new GreedyProcess(s.greedyNice(), work, rondo.host(), rondo.httpPort(),
                LiveRig.greedyPaths(big, s.greedy()), endNs, "timeshift-rondo", clock);
            DelayLog reads = new DelayLog();
            Map<String, Object> extra = new LinkedHashMap<>();
            if (recordings.names().isEmpty()) {
                reads.failed("no recording was accepted to watch");
            } else {
                extra.put("viewer", view(s, rondo, recordings.names().get(0), startNs + s.behindNs(), endNs, reads));
            }
            recordings.join();
            greedy.stop();
            extra.put("recordings", recordings.json(s.recordings()));
            extra.put("deleteFailures", LiveRig.delete(rondo, recordings.names()));
            return new Side("rondo", recordings.durability(), reads, greedy, extra);
        }
    }

    /** The viewer: {@code name} from its start, opened at {@code openNs}, read block by block until {@code endNs}. */
    private Map<String, Object> view(TimeshiftSettings s, ServeProcess rondo, String name, long openNs, long endNs,
                                     DelayLog reads) throws InterruptedException {
        PacedReader.parkingOn(clock::nanoTime).sleepUntil(openNs);
        LoadSettings load = new LoadSettings(rondo.host(), rondo.streamPort(), name, 1, 0,
            endNs - openNs + CLOSE_AFTER_NS, new ClientProfile(4 * MIB, 16 * MIB), false, 1);
        LoadRun run = new LoadRun(load, clock::nanoTime, null);
        FragmentSource source = new FragmentSource(s.blockBytes());
        run.listen(new FragmentListener() {
            @Override
            public void fragment(int stream, long fragmentIndex, long arrivalNs, long dueNs, long durationNs,
                                     int bytes) {
                source.offer(new FragmentSource.Fragment(arrivalNs, dueNs, durationNs, bytes));
            }

            @Override
            public void ended(int stream) {
                source.end();
            }
        });
        LoadResults[] results = new LoadResults[1];
        Thread loadThread = LiveRig.start("timeshift-viewer-load", () -> {
            try {
                results[0] = run.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            long firstDueNs = source.firstDueNs(FIRST_DATA_LIMIT_NS);
            if (firstDueNs < 0) {
                reads.failed("the viewer got no DATA (see the viewer's stream load in the JSON)");
            } else {
                PacedReader reader = new PacedReader(source, clock::nanoTime, PacedReader.parkingOn(clock::nanoTime),
                    reads.pacedReads());
                reader.run(firstDueNs, endNs);
            }
        } catch (IOException e) {
            reads.failed("viewer: " + e);
        }
        run.stop();
        loadThread.join();
        Map<String, Object> m = new LinkedHashMap<>();
        LoadSummary summary = LoadSummary.of(load, results[0]);
        m.put("admitted", summary.admitted());
        m.put("lateDataFragments", summary.lateFragments());
        m.put("pacedReadsThatWaitedForData", source.waits());
        m.put("streamLoad", summary.json());
        return m;
    }

    /** The best-effort phase: the same bytes written with a fsync a second, the viewer nginx's paced Range reads. */
    Side bestEffort(TimeshiftSettings s, LiveFeed feed, FileSet big) throws IOException, InterruptedException {
        Nginx.Variant variant = Nginx.Variant.DIRECTIO;
        console.println("timeshift: phase best effort (page cache, fsync a second; " + variant.label() + "): "
            + s.recordings() + " recordings, a viewer " + s.behindSeconds() + " s behind, " + s.greedy()
            + " greedy readers, " + s.durationSeconds() + " s");
        Path www = work.resolve("www-live-" + big.folder().getFileName());
        Files.createDirectories(www);
        for (int i = 0; i < big.count(); i++) {
            Path link = www.resolve(big.names().get(i));
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, big.path(i).toAbsolutePath());
        }
        try (Nginx nginx = Nginx.start(www, variant, work.resolve(variant.label() + "-live"), clock)) {
            String host = nginx.address().getHostString();
            int port = nginx.address().getPort();
            DelayLog writes = new DelayLog();
            long startNs = clock.nanoTime() + LEAD_NS;
            long endNs = startNs + s.durationNs();
            List<FsyncWriter> writers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < s.recordings(); i++) {
                FsyncWriter writer = new FsyncWriter(www.resolve("recording-" + i + ".mp4"), feed, clock, writes,
                    startNs, endNs);
                writers.add(writer);
                threads.add(LiveRig.start("timeshift-writer-" + i, writer));
            }
            GreedyProcess greedy = new GreedyProcess(s.greedyNice(), work, host, port,
                LiveRig.greedyPaths(big, s.greedy()), endNs, "timeshift-" + variant.label(), clock);
            DelayLog reads = new DelayLog();
            if (s.recordings() > 0) {
                try (HttpConnection connection = new HttpConnection(host, port)) {
                    RangeSource source = new RangeSource(connection, "/recording-0.mp4", feed.bytes(), s.blockBytes(),
                        feed.bytesPerSecond(), 0);
                    new PacedReader(source, clock::nanoTime, PacedReader.parkingOn(clock::nanoTime),
                        reads.pacedReads()).run(startNs + s.behindNs(), endNs);
                } catch (IOException e) {
                    reads.failed("paced Range reads: " + e.getMessage());
                }
            }
            for (Thread t : threads) {
                t.join();
            }
            greedy.stop();
            Map<String, Object> extra = new LinkedHashMap<>();
            long written = 0;
            List<String> failures = new ArrayList<>();
            for (FsyncWriter w : writers) {
                written += w.bytesWritten();
                if (w.failure() != null) {
                    failures.add(w.failure());
                }
            }
            extra.put("bytesWritten", written);
            extra.put("writerFailures", failures);
            return new Side(variant.label(), writes, reads, greedy, extra);
        }
    }
}
