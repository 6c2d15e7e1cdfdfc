package io.rondo.systemtest;

import io.rondo.client.Gap;
import io.rondo.client.Publisher;
import io.rondo.client.Reconnect;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.Open;
import io.rondo.server.cli.RondoCommand;
import io.rondo.server.cluster.haproxy.HaproxyBinary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three Rondo nodes as real processes behind the real HAProxy, as a user meets them (issue 25): every object
 * reachable through HAProxy by HTTP, the WebSocket binding and the TCP protocol; streams spread over the nodes; a
 * drained node gets no new stream; a node killed with {@code kill -9} while 30 streams play, each stream going on
 * on a replica; a fourth node joining and {@code rondo cluster rebalance} moving what placement says, reads correct
 * throughout; a recording whose node dies keeping its durable prefix. The steps share one cluster and run in order
 * (about 70 s on two cores); the kill, the join and the recording are the heavy ones.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterTest {

    private static final List<String> FIRST_THREE = List.of("a", "b", "c");
    private static final List<String> CLIPS = List.of("/clips/c0.webm", "/clips/c1.webm", "/clips/c2.webm",
        "/clips/c3.webm", "/clips/c4.webm", "/clips/c5.webm");
    private static final List<String> NOTES = List.of("/notes/n0.txt", "/notes/n1.txt", "/notes/n2.txt");
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path temp;

    private ClusterUnderTest cluster;
    private byte[] clip;
    /** Every object uploaded so far, and the bytes a GET of it must return. */
    private final Map<String, byte[]> objects = new LinkedHashMap<>();
    private long clipFragments;

    @BeforeAll
    void startThreeNodesBehindHaproxy() throws Exception {
        HaproxyBinary haproxy = ClusterUnderTest.installedHaproxy();
        try (InputStream in = ClusterTest.class.getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            clip = in.readAllBytes();
        }
        cluster = new ClusterUnderTest(temp, FIRST_THREE, haproxy);
        cluster.members(FIRST_THREE);
        cluster.start(FIRST_THREE);
        cluster.startHaproxy();
        for (String name : CLIPS) {
            assertEquals(owners(name), nodes(cluster.upload("a", name, clip)), name + " is on its owners");
        }
        for (String name : NOTES) {
            byte[] note = ("the note " + name + "\n").getBytes(StandardCharsets.UTF_8);
            assertEquals(owners(name), nodes(cluster.upload("a", name, note)), name + " is on its owners");
            objects.put(name, note);
        }
        for (String name : CLIPS) {
            HttpResponse<byte[]> stored = cluster.direct(cluster.owners(name).get(0), name);
            assertEquals(200, stored.statusCode(), name + " from its owner");
            objects.put(name, stored.body());
        }
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void everyObjectIsReachableThroughHaproxyByHttpWebSocketAndTheStreamProtocol() throws Exception {
        for (Map.Entry<String, byte[]> object : objects.entrySet()) {
            HttpResponse<byte[]> answer = cluster.viaHaproxy(object.getKey());
            assertEquals(200, answer.statusCode(), object.getKey() + "\n" + cluster.haproxyLog());
            assertArrayEquals(object.getValue(), answer.body(), object.getKey() + ": the bytes its owner holds");
        }
        String clips = new String(cluster.viaHaproxy("/clips/").body(), StandardCharsets.UTF_8);
        String notes = new String(cluster.viaHaproxy("/notes/").body(), StandardCharsets.UTF_8);
        for (String name : objects.keySet()) {
            String file = name.substring(name.lastIndexOf('/') + 1);
            assertTrue((name.startsWith("/clips/") ? clips : notes).contains(file),
                "the folder page through HAProxy lists " + name + " whichever node answers it");
        }
        for (String name : CLIPS) {
            HttpResponse<byte[]> info = cluster.viaHaproxy("/player/info" + name);
            assertEquals(200, info.statusCode(), "the player's info of " + name);
            assertTrue(new String(info.body(), StandardCharsets.UTF_8).contains("webm"), "info names its container");
        }
        clipFragments = playTcp(CLIPS.get(0), Reconnect.NEVER).fragments();
        assertTrue(clipFragments >= 5, "the clip has " + clipFragments + " fragments");
        ExecutorService players = Executors.newFixedThreadPool(2 * CLIPS.size());
        try {
            Map<String, Future<Long>> tcp = new LinkedHashMap<>();
            Map<String, Future<Long>> webSocket = new LinkedHashMap<>();
            for (String name : CLIPS) {
                tcp.put(name, players.submit(() -> playTcp(name, Reconnect.NEVER).fragments()));
                webSocket.put(name, players.submit(() -> playWebSocket(name)));
            }
            for (String name : CLIPS) {
                assertEquals(clipFragments, tcp.get(name).get(), name + " over the stream port");
                assertEquals(clipFragments, webSocket.get(name).get(), name + " over the WebSocket binding");
            }
        } finally {
            players.shutdownNow();
        }
    }

    /** Streams of one object spread over both its owners, whichever node HAProxy's leastconn sends them to. */
    @Test
    @Order(2)
    void streamsOfAnObjectSpreadOverItsOwners() throws Exception {
        String name = CLIPS.get(0);
        List<StreamClient> open = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                StreamClient client = client(Reconnect.NEVER);
                open.add(client);
                client.open(name, 0, RondoUnderTest.PROFILE);
            }
            Map<String, Integer> serving = serving();
            System.out.println("ClusterTest: 12 streams of " + name + " (owners " + owners(name)
                + ") through HAProxy, per node " + serving);
            assertEquals(12, serving.values().stream().mapToInt(Integer::intValue).sum(), "every stream runs once");
            for (String node : FIRST_THREE) {
                boolean owner = owners(name).contains(node);
                assertEquals(owner, serving.get(node) > 0, "node " + node + (owner ? " owns " : " does not own ")
                    + name + ": " + serving);
            }
        } finally {
            for (StreamClient client : open) {
                client.close();
            }
        }
    }

    @Test
    @Order(3)
    void aDrainedNodeGetsNoNewStream() throws Exception {
        String drained = "c";
        String agent = cluster.adminJson(drained, "POST", "/api/v1/server/drain").path("agent").asText();
        assertTrue(agent.contains("drain"), "the drained node's agent says so: " + agent);
        try {
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
            List<StreamClient> open = new ArrayList<>();
            try {
                for (int i = 0; i < 9; i++) {
                    StreamClient client = client(Reconnect.NEVER);
                    open.add(client);
                    client.open(CLIPS.get(i % CLIPS.size()), 0, RondoUnderTest.PROFILE);
                }
                Map<String, Integer> serving = serving();
                System.out.println("ClusterTest: 9 streams with " + drained + " drained, per node " + serving);
                assertEquals(0, serving.get(drained), "the drained node serves no new stream: " + serving);
                assertEquals(9, serving.values().stream().mapToInt(Integer::intValue).sum(), "the others serve all");
            } finally {
                for (StreamClient client : open) {
                    client.close();
                }
            }
        } finally {
            agent = cluster.adminJson(drained, "DELETE", "/api/v1/server/drain").path("agent").asText();
            System.out.println("ClusterTest: " + drained + " no longer drained, its agent says " + agent);
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
        }
    }

    /** Heavy: 30 streams, a node killed with kill -9 under them, and its restart. */
    @Test
    @Order(4)
    void aNodeKilledUnderThirtyStreamsLosesNoStreamAndNoObject() throws Exception {
        int count = 30;
        CountDownLatch playing = new CountDownLatch(count);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Played> played = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = CLIPS.get(i % CLIPS.size());
            Thread thread = new Thread(() -> {
                try {
                    played.add(playTcp(name, new Reconnect(6, Duration.ofMillis(200), Clock.systemUTC()), playing));
                } catch (Exception | AssertionError e) {
                    failure.compareAndSet(null, e);
                    playing.countDown();
                }
            }, "player-" + i);
            thread.start();
            threads.add(thread);
        }
        assertTrue(playing.await(60, TimeUnit.SECONDS), "30 streams start");
        Map<String, Integer> serving = serving();
        String killed = serving.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        cluster.kill(killed);
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        if (failure.get() != null) {
            throw new AssertionError("a stream did not play to its END after " + killed + " was killed",
                failure.get());
        }
        List<Gap> gaps = played.stream().flatMap(p -> p.gaps().stream()).toList();
        long resumed = played.stream().filter(p -> !p.gaps().isEmpty()).count();
        Duration longest = gaps.stream().map(Gap::length).max(Duration::compareTo).orElse(Duration.ZERO);
        System.out.println("ClusterTest: kill -9 of " + killed + " serving " + serving.get(killed) + " of " + count
            + " streams " + serving + ": " + count + " streams played to END, " + resumed + " resumed after "
            + gaps.size() + " gaps, longest " + longest.toMillis() + " ms, lengths (ms) "
            + gaps.stream().map(g -> g.length().toMillis()).sorted().toList() + ", fragments skipped "
            + gaps.stream().mapToLong(Gap::fragmentsSkipped).sum());
        assertEquals(count, played.size(), "every stream played to its END");
        assertTrue(resumed > 0, "the streams the killed node served resumed elsewhere");
        try {
            for (Map.Entry<String, byte[]> object : objects.entrySet()) {
                HttpResponse<byte[]> answer = cluster.viaHaproxy(object.getKey());
                assertEquals(200, answer.statusCode(), () -> object.getKey() + " is still there with " + killed
                    + " dead: " + new String(answer.body(), StandardCharsets.UTF_8) + answer.headers().map()
                    + "; straight from its owners " + directly(object.getKey()) + "\nHAProxy's servers:\n"
                    + cluster.haproxyServers());
                assertArrayEquals(object.getValue(), answer.body(), object.getKey());
            }
        } finally {
            cluster.start(List.of(killed));
        }
    }

    /** Heavy: 40 more objects, a fourth node, HAProxy restarted on the new configuration, rebalance. */
    @Test
    @Order(5)
    void aFourthNodeJoinsAndRebalanceMovesWhatPlacementSaysWithReadsCorrectThroughout() throws Exception {
        for (int i = 0; i < 40; i++) {
            String name = String.format("/many/o%02d.txt", i);
            byte[] bytes = ("object " + i + " of the join\n").getBytes(StandardCharsets.UTF_8);
            cluster.upload(FIRST_THREE.get(i % 3), name, bytes);
            objects.put(name, bytes);
        }
        List<String> four = List.of("a", "b", "c", "d");
        Map<String, Set<String>> before = placement(FIRST_THREE);
        cluster.plan("d");
        cluster.members(four);
        cluster.start(List.of("d"));
        cluster.startHaproxy();
        AtomicInteger reads = new AtomicInteger();
        List<String> wrong = Collections.synchronizedList(new ArrayList<>());
        Thread reader = readThroughout(reads, wrong);
        String printed;
        try {
            printed = rebalance();
        } finally {
            reader.interrupt();
            reader.join();
        }
        Map<String, Set<String>> expected = new TreeMap<>();
        for (String node : four) {
            expected.put(node, new TreeSet<>());
        }
        int moved = 0;
        Map<String, Set<String>> after = placement(four);
        Set<String> all = new TreeSet<>();
        after.values().forEach(all::addAll);
        for (String name : all) {
            List<String> owners = cluster.owners(name);
            owners.forEach(owner -> expected.get(owner).add(name));
            moved += owners.contains("d") ? 1 : 0;
        }
        System.out.println("ClusterTest: node d joined; rebalance: " + printed.strip().replace('\n', ' ') + "; "
            + moved + " of " + all.size() + " objects gained d as an owner; before " + counts(before)
            + ", after " + counts(after) + " (without the player's files, which every node keeps); " + reads.get()
            + " reads through HAProxy during it");
        assertEquals(expected, after, "each node holds exactly the objects it owns, the player's files aside");
        assertTrue(wrong.isEmpty(), "reads through HAProxy during the rebalance: " + wrong);
        assertTrue(reads.get() > 0, "reads ran during the rebalance");
    }

    /**
     * Heavy, and needs ffmpeg: a live recording published at one of its owners, that node killed with kill -9
     * mid-recording and started again. What is kept: every fragment the publisher was told was durable, on the node
     * that recorded it (the recording is not copied while it is written); {@code rondo cluster rebalance} then copies
     * that prefix to the recording's other owner, and it comes back whole through HAProxy.
     */
    @Test
    @Order(6)
    void aRecordingOnANodeKilledMidRecordingKeepsItsDurablePrefixAndRebalanceCopiesIt() throws Exception {
        boolean present = RondoUnderTest.onPath("ffmpeg").isPresent();
        if (Boolean.getBoolean("rondo.ffmpeg.required")) {
            assertTrue(present, "ffmpeg is required (rondo.ffmpeg.required) but not installed");
        }
        Assumptions.assumeTrue(present, "ffmpeg is not installed: install ffmpeg to test a recording's node dying");
        String name = "/live/cam.mp4";
        String recorder = cluster.owners(name).get(0);
        String other = cluster.owners(name).get(1);
        long told;
        Process ffmpeg = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
            "testsrc2=size=160x120:rate=25", "-t", "20", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
            "-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-")
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (StreamClient client = StreamClient.connect("127.0.0.1", cluster.streamPort(recorder));
             InputStream media = ffmpeg.getInputStream()) {
            Publisher publisher = client.publish(name, "mp4", 2_000_000, cluster.publishToken(recorder));
            byte[] chunk = new byte[4096];
            for (int read = media.read(chunk); read > 0; read = media.read(chunk)) {
                publisher.send(chunk, 0, read);
                if (publisher.lastDurable() != null && publisher.lastDurable().fragments() >= 3) {
                    break;
                }
            }
            told = publisher.lastDurable().fragments();
            cluster.kill(recorder);
        } finally {
            ffmpeg.destroyForcibly();
        }
        cluster.start(List.of(recorder));
        assertTrue(cluster.holds(recorder).contains(name), name + " is on " + recorder + " after its restart");
        boolean copiedWhileRecorded = cluster.holds(other).contains(name);
        long kept = fragmentsAt(recorder, name);
        assertTrue(kept >= told, "the publisher was told " + told + " fragments were durable, " + kept + " were kept");
        String printed = rebalance();
        assertTrue(cluster.holds(other).contains(name), name + " copied to its other owner " + other);
        assertEquals(kept, fragmentsAt(other, name), "the copy on " + other + " plays every fragment kept");
        HttpResponse<byte[]> recorded = cluster.direct(recorder, name);
        HttpResponse<byte[]> copied = cluster.direct(other, name);
        HttpResponse<byte[]> through = cluster.viaHaproxy(name);
        assertEquals(200, through.statusCode(), name + " through HAProxy");
        assertTrue(Arrays.equals(recorded.body(), through.body()) || Arrays.equals(copied.body(), through.body()),
            name + " through HAProxy is one of its owners' copies");
        System.out.println("ClusterTest: kill -9 of " + recorder + " mid-recording: " + told + " fragments told "
            + "durable, " + kept + " kept on " + recorder + " (" + recorded.body().length + " bytes; the copy on "
            + other + " " + copied.body().length + " bytes, the same fragments); on " + other
            + " before rebalance: " + copiedWhileRecorded + "; rebalance: " + printed.strip().replace('\n', ' '));
    }

    /** How many fragments a stream of {@code name} from node {@code node}'s own stream port plays to its END. */
    private long fragmentsAt(String node, String name) throws IOException, StreamRejectedException {
        try (StreamClient viewer = StreamClient.connect("127.0.0.1", cluster.streamPort(node))) {
            viewer.open(name, 0, RondoUnderTest.PROFILE);
            long fragments = 0;
            while (viewer.nextData() != null) {
                fragments++;
            }
            return fragments;
        }
    }

    /** Runs {@code rondo cluster rebalance} in this JVM, as a person runs it; what it printed. It must succeed. */
    private String rebalance() {
        StringWriter out = new StringWriter();
        CommandLine rondo = new CommandLine(new RondoCommand());
        rondo.setOut(new PrintWriter(out));
        rondo.setErr(new PrintWriter(out));
        int exit = rondo.execute("cluster", "rebalance", "--config", cluster.config().toString(), "--token-file",
            cluster.tokenFile().toString());
        assertEquals(0, exit, out.toString());
        return out.toString();
    }

    /** A thread GETting every object through HAProxy, round after round, until interrupted. */
    private Thread readThroughout(AtomicInteger reads, List<String> wrong) {
        Map<String, byte[]> expected = new LinkedHashMap<>(objects);
        Thread reader = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                for (Map.Entry<String, byte[]> object : expected.entrySet()) {
                    try {
                        HttpResponse<byte[]> answer = cluster.viaHaproxy(object.getKey());
                        if (answer.statusCode() != 200 || !Arrays.equals(object.getValue(), answer.body())) {
                            wrong.add(object.getKey() + ": " + answer.statusCode());
                        }
                        reads.incrementAndGet();
                    } catch (IOException e) {
                        if (!Thread.currentThread().isInterrupted()) {
                            wrong.add(object.getKey() + ": " + e);
                        }
                        return;
                    }
                }
            }
        }, "reader");
        reader.start();
        return reader;
    }

    /** What each node holds itself, but the player's files, which every node keeps. */
    private Map<String, Set<String>> placement(List<String> nodes) throws IOException {
        Map<String, Set<String>> held = new TreeMap<>();
        for (String node : nodes) {
            Set<String> names = cluster.holds(node);
            names.removeIf(name -> name.startsWith("/player/"));
            held.put(node, names);
        }
        return held;
    }

    private static Map<String, Integer> counts(Map<String, Set<String>> placement) {
        Map<String, Integer> counts = new TreeMap<>();
        placement.forEach((node, names) -> counts.put(node, names.size()));
        return counts;
    }

    /** What each owner of {@code name} answers to a GET of it, straight from its HTTP port. */
    private String directly(String name) {
        StringBuilder answers = new StringBuilder();
        for (String owner : owners(name)) {
            try {
                HttpResponse<byte[]> answer = cluster.direct(owner, name);
                answers.append(owner).append(' ').append(answer.statusCode()).append(' ')
                    .append(new String(answer.body(), StandardCharsets.UTF_8).strip()).append("; ");
            } catch (IOException e) {
                answers.append(owner).append(' ').append(e).append("; ");
            }
        }
        return answers.toString();
    }

    /** How many streams each running member serves now. */
    private Map<String, Integer> serving() throws IOException {
        Map<String, Integer> serving = new TreeMap<>();
        for (String node : cluster.members()) {
            try {
                serving.put(node, cluster.streams(node));
            } catch (IOException e) {
                serving.put(node, 0);
            }
        }
        return serving;
    }

    /** The owners of {@code name}, in name order. */
    private List<String> owners(String name) {
        return cluster.owners(name).stream().sorted().toList();
    }

    private static List<String> nodes(String header) {
        return Arrays.stream(header.split(",")).map(String::strip).filter(s -> !s.isEmpty()).sorted().toList();
    }

    private StreamClient client(Reconnect reconnect) throws IOException {
        return StreamClient.connect("127.0.0.1", cluster.haproxyStream(), READ_TIMEOUT, Duration.ofSeconds(1),
            reconnect);
    }

    /** What a played stream received: its fragments, and the gaps it was picked up again after. */
    private record Played(long fragments, List<Gap> gaps) {
    }

    private Played playTcp(String name, Reconnect reconnect) throws IOException, InterruptedException {
        return playTcp(name, reconnect, new CountDownLatch(1));
    }

    /**
     * Plays {@code name} through HAProxy's stream port to its END, counting {@code started} down at its first
     * fragment; a refusal for room is asked again after its retry-after. Fragments arrive in order, none missing.
     */
    private Played playTcp(String name, Reconnect reconnect, CountDownLatch started)
        throws IOException, InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try (StreamClient client = client(reconnect)) {
                client.open(name, 0, RondoUnderTest.PROFILE);
                long expected = 0;
                for (Data data = client.nextData(); data != null; data = client.nextData()) {
                    assertEquals(expected, data.fragmentIndex(), name + ": fragments in order, none missing");
                    expected++;
                    started.countDown();
                }
                return new Played(expected, client.gaps());
            } catch (StreamRejectedException e) {
                assertTrue(attempt < 20, name + " refused 20 times: " + e.getMessage());
                TimeUnit.SECONDS.sleep(1);
            }
        }
    }

    /** Plays {@code name} through HAProxy's HTTP port over the WebSocket binding at /stream/NAME; its fragments. */
    private long playWebSocket(String name) throws IOException {
        try (RawWebSocket socket = RawWebSocket.connect(cluster.haproxyHttp(), "/stream" + name, null)) {
            assertEquals(101, socket.handshake().status(), socket.handshake().head());
            socket.send(new Open(name.substring(1), 0, RondoUnderTest.PROFILE));
            assertInstanceOf(Accept.class, socket.next().frame(), name + " accepted over the WebSocket");
            long expected = 0;
            for (Frame frame = socket.next().frame(); !(frame instanceof End); frame = socket.next().frame()) {
                Data data = assertInstanceOf(Data.class, frame, name + " after fragment " + (expected - 1));
                assertEquals(expected++, data.fragmentIndex(), name + ": fragments in order");
            }
            return expected;
        }
    }
}
