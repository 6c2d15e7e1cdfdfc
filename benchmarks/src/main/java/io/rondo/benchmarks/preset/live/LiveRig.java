package io.rondo.benchmarks.preset.live;

import io.rondo.benchmarks.load.live.DurableWatch;
import io.rondo.benchmarks.load.live.LiveFeed;
import io.rondo.benchmarks.load.live.PacedPublisher;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Folders;
import io.rondo.benchmarks.rig.RondoCheckout;
import io.rondo.client.StreamRejectedException;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What both live presets set up around a Rondo: its library with the greedy readers' files (kept
 * for the next run), the publish token {@code rondo serve} wrote, the recordings published through
 * the stream protocol with every refusal counted by its reason, and the recordings deleted through
 * the admin API at the end, so runs do not fill the disk.
 */
final class LiveRig {

    /** A second, in nanoseconds. */
    static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final Duration ADMIN_LIMIT = Duration.ofSeconds(10);

    private LiveRig() {
    }

    /** Rondo's data folder with {@code big} ingested, kept for the next run of the same files. */
    static Path library(Path work, FileSet big, PrintStream console) throws IOException {
        Path data = work.resolve("rondo-" + big.folder().getFileName());
        Path done = data.resolve("live-ingested.txt");
        if (Files.isRegularFile(done)) {
            return data;
        }
        Folders.deleteTree(data);
        Files.createDirectories(data);
        console.println("live: ingesting " + big.count() + " files into Rondo's library " + data);
        RondoCheckout.ingest(data, big.paths(), work.resolve("rondo-ingest.log"));
        Files.writeString(done, big.folder().getFileName().toString(), StandardCharsets.UTF_8);
        return data;
    }

    /** One URL path a greedy reader, each a file of its own. */
    static List<String> greedyPaths(FileSet big, int readers) {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < readers; i++) {
            paths.add("/" + big.names().get(i % big.count()));
        }
        return paths;
    }

    /** The recordings of one run, published, and the refusals. */
    static final class Recordings {
        private final List<PacedPublisher> publishers = new ArrayList<>();
        private final List<String> names = new ArrayList<>();
        private final Map<String, Long> refusals = new TreeMap<>();
        private final List<Thread> threads = new ArrayList<>();
        private final DelayLog durability = new DelayLog();
        private final DurableWatch watch;
        private final Thread watchThread;

        private Recordings(NanoClock clock) {
            this.watch = new DurableWatch(clock);
            this.watchThread = new Thread(watch, "live-durable-watch");
            watchThread.setDaemon(true);
        }

        /**
         * Publishes {@code names} to {@code rondo}, serving {@code data}, at {@code peakBitsPerSecond}
         * each; one refused is counted by its reason and left out.
         *
         * @throws IOException if a connection fails or the server answers ERROR
         */
        static Recordings publish(ServeProcess rondo, Path data, List<String> names, long peakBitsPerSecond,
                                  NanoClock clock) throws IOException {
            String token = Files.readString(data.resolve("rondo").resolve("publish.token"),
                StandardCharsets.UTF_8).strip();
            Recordings r = new Recordings(clock);
            for (String name : names) {
                try {
                    r.publishers.add(PacedPublisher.publish(rondo.host(), rondo.streamPort(), name, peakBitsPerSecond,
                        token, clock, r.durability, 2 * SECOND_NS));
                    r.names.add(name);
                } catch (StreamRejectedException e) {
                    r.refusals.merge(e.reject().reason().name(), 1L, Long::sum);
                }
            }
            return r;
        }

        /** The round the server cuts by, from the first ACCEPT; one second if none was accepted. */
        long roundNs() {
            return publishers.isEmpty() ? SECOND_NS : publishers.get(0).roundNs();
        }

        /** Sends {@code feed} on every recording from {@code startNs} to {@code endNs}, each on a thread. */
        void start(LiveFeed feed, long startNs, long endNs) {
            watchThread.start();
            for (PacedPublisher p : publishers) {
                p.schedule(feed, startNs, endNs);
                watch.add(p);
                Thread t = new Thread(p, "live-publisher-" + threads.size());
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
        }

        /** Waits for every recording to be finished (CLOSE, its last DURABLE, END) or failed. */
        void join() throws InterruptedException {
            for (Thread t : threads) {
                t.join();
            }
            watch.stop();
            watchThread.join();
        }

        List<PacedPublisher> publishers() {
            return publishers;
        }

        List<String> names() {
            return names;
        }

        DelayLog durability() {
            return durability;
        }

        /** The figures of the recordings, for the JSON. */
        Map<String, Object> json(int asked) {
            Map<String, Object> m = new LinkedHashMap<>();
            long late = 0;
            long durable = 0;
            long bytes = 0;
            Map<String, Long> failures = new TreeMap<>();
            for (PacedPublisher p : publishers) {
                late += p.lateFragments();
                durable += p.durableFragments();
                bytes += p.bytesSent();
                if (p.failure() != null) {
                    failures.merge(p.failure(), 1L, Long::sum);
                }
            }
            m.put("asked", asked);
            m.put("accepted", publishers.size());
            m.put("refusedByReason", refusals);
            m.put("endedWithError", failures);
            m.put("bytesSent", bytes);
            m.put("fragmentsDurable", durable);
            m.put("fragmentsDurableAfterMoreThanTwoRounds", late);
            return m;
        }

        long refused() {
            return refusals.values().stream().mapToLong(Long::longValue).sum();
        }

        long failed() {
            return publishers.stream().filter(p -> p.failure() != null).count();
        }

        long late() {
            return publishers.stream().mapToLong(PacedPublisher::lateFragments).sum();
        }
    }

    /**
     * Deletes {@code names} through the admin API; each answer's status is checked.
     *
     * @return the failures, in words; empty if every one was deleted
     */
    static List<String> delete(ServeProcess rondo, List<String> names) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(ADMIN_LIMIT).build();
        String token = rondo.adminToken();
        List<String> failures = new ArrayList<>();
        for (String name : names) {
            URI uri = URI.create(rondo.adminUrl() + "/api/v1/objects/" + name);
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).DELETE().timeout(ADMIN_LIMIT)
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                failures.add("DELETE " + name + ": " + response.statusCode() + " " + response.body());
            }
        }
        return failures;
    }

    /** Starts {@code body} on a daemon thread. */
    static Thread start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
