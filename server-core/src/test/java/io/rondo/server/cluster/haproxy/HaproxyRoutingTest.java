package io.rondo.server.cluster.haproxy;

import io.rondo.content.cluster.Rendezvous;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generated configuration run by the real HAProxy in front of stand-in nodes, and of real ones: every
 * request that names an object reaches one of the owners {@link Rendezvous} gives (the Lua and the Java agree),
 * whatever the name's characters; what names none reaches any node; a killed, refusing or drained replica's
 * requests reach the other.
 */
class HaproxyRoutingTest {

    private final List<FakeNode> nodes = new ArrayList<>();
    private HaproxyProcess haproxy;
    private int port;
    private int statsPort;

    @AfterEach
    void stop() {
        if (haproxy != null) {
            haproxy.close();
        }
        nodes.forEach(FakeNode::close);
    }

    @ParameterizedTest(name = "{0} nodes, {1} replicas")
    @CsvSource({"3, 2", "4, 2", "5, 3"})
    void everyObjectReachesOneOfItsOwnersWhateverItsName(int count, int replicas, @TempDir Path folder)
        throws IOException {
        start(count, replicas, folder);
        for (String name : objectNames()) {
            String path = encode(name) + (name.hashCode() % 3 == 0 ? "?t=12.5&x=/y" : "");
            String node = get(path).node();
            assertTrue(owners(name, replicas).contains(node), name + " reached " + node + ", not one of "
                + owners(name, replicas) + "\n" + haproxy.printed());
        }
    }

    @Test
    void anObjectsInfoAndItsWebSocketStreamReachItsOwners(@TempDir Path folder) throws IOException {
        start(4, 2, folder);
        for (String name : objectNames().subList(0, 40)) {
            assertTrue(owners(name, 2).contains(get("/player/info" + encode(name)).node()), "info of " + name);
            Answer stream = get("/stream" + encode(name), "Connection: Upgrade", "Upgrade: websocket",
                "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==");
            assertTrue(owners(name, 2).contains(stream.node()), "stream of " + name + " reached " + stream.node());
            assertTrue(owners("/stream" + name, 2).contains(get("/stream" + encode(name)).node()),
                "a plain GET of /stream" + name + " names that object");
        }
    }

    @Test
    void anHlsPlaylistReachesItsObjectsOwnersAsItsPartsDo(@TempDir Path folder) throws IOException {
        start(4, 2, folder);
        for (String name : objectNames().subList(0, 40)) {
            String playlist = get(encode(name) + ".m3u8").node();
            assertTrue(owners(name, 2).contains(playlist), "the playlist of " + name + " reached " + playlist
                + ", not one of its object's owners " + owners(name, 2));
            String part = get(encode(name) + "?session=k").node();
            assertTrue(owners(name, 2).contains(part), "a part of " + name + " reached " + part);
        }
    }

    @Test
    void thePlayersFilesAndFolderPagesReachAnyNode(@TempDir Path folder) throws IOException {
        start(4, 2, folder);
        Set<String> reached = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            for (String path : List.of("/player/", "/player/player.js", "/", "/videos/", "/m%C3%BAsica/", "/stream")) {
                Answer answer = get(path);
                assertEquals(200, answer.status(), path);
                reached.add(answer.node());
            }
        }
        assertEquals(names(), reached, "pages are spread over every node");
    }

    @Test
    void aKilledNodesObjectsReachTheirOtherReplica(@TempDir Path folder) throws IOException {
        start(3, 2, folder);
        FakeNode killed = nodes.get(1);
        killed.close();
        int theirs = 0;
        for (String name : objectNames()) {
            List<String> owners = owners(name, 2);
            Answer answer = get(encode(name));
            assertEquals(200, answer.status(), name + "\n" + haproxy.printed());
            assertTrue(owners.contains(answer.node()) && !answer.node().equals(killed.name()), name);
            theirs += owners.contains(killed.name()) ? 1 : 0;
        }
        assertTrue(theirs > 100, "the killed node held " + theirs + " of 200 objects");
    }

    /** A replica whose agent reports part of its room (say 40%) still takes its objects once the other is killed. */
    @Test
    void aPartBusyReplicaTakesTheObjectsOfAKilledOne(@TempDir Path folder) throws IOException {
        start(3, 2, folder);
        nodes.forEach(node -> node.weight(40));
        FakeNode killed = nodes.get(0);
        killed.close();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
        for (String name : objectNames().subList(0, 60)) {
            Answer answer = get(encode(name));
            assertEquals(200, answer.status(), name + "\n" + haproxy.printed());
            assertTrue(owners(name, 2).contains(answer.node()) && !answer.node().equals(killed.name()), name);
        }
    }

    /** 503: a node with no room; 404: a new owner the object has not reached yet, while it is rebalanced. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {503, 404})
    void aRefusedRequestIsRetriedOnTheOtherReplica(int status, @TempDir Path folder) throws IOException {
        start(3, 2, folder);
        FakeNode full = nodes.get(0);
        full.refuse(status);
        for (String name : objectNames()) {
            List<String> owners = owners(name, 2);
            Answer answer = get(encode(name));
            assertEquals(200, answer.status(), name);
            assertTrue(owners.contains(answer.node()) && !answer.node().equals(full.name()), name);
        }
    }

    @Test
    void aNodeItsAgentDrainsGetsNoNewRequestWhileItsReplicaIsThere(@TempDir Path folder) throws IOException {
        start(3, 2, folder);
        FakeNode drained = nodes.get(2);
        drained.drain();
        List<String> itsObjects = objectNames().stream().filter(name -> owners(name, 2).contains(drained.name()))
            .limit(20).toList();
        long giveUpNs = SystemClocks.nanoClock().nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int answeredByDrained;
        do {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            answeredByDrained = 0;
            for (String name : itsObjects) {
                answeredByDrained += drained.name().equals(get(encode(name)).node()) ? 1 : 0;
            }
        } while (answeredByDrained > 0 && SystemClocks.nanoClock().nanoTime() - giveUpNs < 0);
        assertEquals(0, answeredByDrained, "requests still reach the drained node\n" + haproxy.printed());
        for (String name : objectNames()) {
            Answer answer = get(encode(name));
            assertTrue(owners(name, 2).contains(answer.node()) && !answer.node().equals(drained.name()), name);
        }
    }

    /**
     * Real Rondo nodes, each holding only the objects it owns: each object comes back whole through HAProxy, and
     * HAProxy's health check finds every node up.
     */
    @Test
    void realNodesEachServeTheObjectsTheyOwnThroughHaproxy(@TempDir Path folder) throws Exception {
        HaproxyBinary binary = InstalledHaproxy.binary();
        List<String> cluster = List.of("node-a", "node-b", "node-c");
        List<String> objects = objectNames().subList(0, 40).stream().map(name -> name + ".txt").toList();
        List<Library> libraries = new ArrayList<>();
        List<RondoServer> servers = new ArrayList<>();
        try {
            List<HaproxyNode> nodesOfHaproxy = new ArrayList<>();
            for (String node : cluster) {
                Library library = Library.open(RondoConfig.defaults(), folder.resolve(node), SystemClocks.utc());
                libraries.add(library);
                for (String object : objects) {
                    if (Rendezvous.owns(node, object, cluster, 1)) {
                        Path source = Files.writeString(folder.resolve("source.txt"), "the bytes of " + object);
                        library.ingest().ingest(new IngestRequest(source, object, null, 0), copied -> { });
                    }
                }
                RondoServer server = RondoServer.start(new RondoContext().library(library)
                    .model(DiskProfile.paperDisk()).emulate(true));
                servers.add(server);
                nodesOfHaproxy.add(new HaproxyNode(node, "127.0.0.1", server.http().address().getPort(),
                    HaproxyProcess.freeLoopbackPort(), HaproxyProcess.freeLoopbackPort()));
            }
            port = HaproxyProcess.freeLoopbackPort();
            Path socket = folder.resolve("haproxy.sock");
            haproxy = HaproxyProcess.start(binary, new HaproxyConfig(nodesOfHaproxy, 1, "127.0.0.1:" + port)
                .withStatsSocket(socket), folder.resolve("haproxy"), port, SystemClocks.nanoClock());

            for (String object : objects) {
                Answer answer = get(encode(object));
                assertEquals(200, answer.status(), object + "\n" + haproxy.printed());
                assertEquals("the bytes of " + object, answer.body());
            }
            assertEquals(Set.of("L7OK"), checkStatuses(socket), "HEAD /favicon.ico finds every node up");
        } finally {
            for (RondoServer server : servers) {
                server.close();
            }
            for (Library library : libraries) {
                library.close();
            }
        }
    }

    @Test
    void theStatsPageAndMetricsAnswerOnTheirPort(@TempDir Path folder) throws IOException {
        start(3, 2, folder);
        assertEquals(200, get(statsPort, "/stats").status());
        assertEquals(200, get(statsPort, "/metrics").status());
    }

    private void start(int count, int replicas, Path folder) throws IOException {
        HaproxyBinary binary = InstalledHaproxy.binary();
        List<HaproxyNode> cluster = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            FakeNode node = new FakeNode("node-" + (char) ('a' + i));
            nodes.add(node);
            cluster.add(new HaproxyNode(node.name(), "127.0.0.1", node.port(), HaproxyProcess.freeLoopbackPort(),
                node.agentPort()));
        }
        port = HaproxyProcess.freeLoopbackPort();
        statsPort = HaproxyProcess.freeLoopbackPort();
        haproxy = HaproxyProcess.start(binary, new HaproxyConfig(cluster, replicas, "127.0.0.1:" + port)
            .withStatsSocket(folder.resolve("haproxy.sock")).withStatsBind("127.0.0.1:" + statsPort), folder, port,
            SystemClocks.nanoClock());
    }

    /**
     * The servers' health check statuses on the runtime API at {@code socket} once HAProxy has checked every
     * server, e.g. {@code L7OK}, {@code L7STS} (a wrong status), {@code L4CON} (refused).
     */
    private static Set<String> checkStatuses(Path socket) throws IOException {
        long giveUpNs = SystemClocks.nanoClock().nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Set<String> statuses = new HashSet<>();
            HaproxyProcess.serverStats(socket).forEach(server -> statuses.add(server.get("check_status")));
            boolean checked = !statuses.contains("INI") && !statuses.contains("");
            if (checked || SystemClocks.nanoClock().nanoTime() - giveUpNs > 0) {
                return statuses;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private Set<String> names() {
        Set<String> names = new HashSet<>();
        nodes.forEach(node -> names.add(node.name()));
        return names;
    }

    private List<String> owners(String object, int replicas) {
        return Rendezvous.owners(object, names(), replicas);
    }

    /** 200 names: plain, with spaces, '%', '+', '?' and '#' in them, accented and in other scripts. */
    private static List<String> objectNames() {
        String[] forms = {"/videos/clip-%d.webm", "/my videos/take %d.mp4", "/100%% real/%d.ogg", "/a+b/c+%d.mp3",
            "/música/canción %d.flac", "/日本/動画%d.mp4", "/what?/why #%d.ts", "/deep/er/still/%d"};
        List<String> names = new ArrayList<>();
        for (int i = 0; names.size() < 200; i++) {
            names.add(String.format(Locale.ROOT, forms[i % forms.length], i));
        }
        return names;
    }

    /** The path as a browser sends it: UTF-8, every byte but unreserved ones, '/' and '+' percent-encoded. */
    private static String encode(String name) {
        StringBuilder path = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~/+".indexOf(c) >= 0)) {
                path.append((char) c);
            } else {
                path.append('%').append(String.format(Locale.ROOT, "%02X", c));
            }
        }
        return path.toString();
    }

    private record Answer(int status, String node, String body) {
    }

    /** A GET through HAProxy on a connection of its own, read up to the end of its body. */
    private Answer get(String target, String... headers) throws IOException {
        return get(port, target, headers);
    }

    private static Answer get(int port, String target, String... headers) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: rondo\r\n");
            for (String header : headers) {
                request.append(header).append("\r\n");
            }
            socket.getOutputStream().write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            List<String> head = head(socket.getInputStream());
            int status = Integer.parseInt(head.get(0).split(" ")[1]);
            String node = null;
            int length = 0;
            for (String line : head.subList(1, head.size())) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith(FakeNode.HEADER.toLowerCase(Locale.ROOT) + ":")) {
                    node = line.substring(line.indexOf(':') + 1).strip();
                } else if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(line.indexOf(':') + 1).strip());
                }
            }
            byte[] body = socket.getInputStream().readNBytes(length);
            assertEquals(length, body.length, target + ": the whole body");
            return new Answer(status, node, new String(body, StandardCharsets.UTF_8));
        }
    }

    private static List<String> head(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1).strip();
                if (text.isEmpty()) {
                    return lines;
                }
                lines.add(text);
                line.reset();
            } else {
                line.write(b);
            }
        }
        throw new IOException("the connection closed inside the answer's head: " + lines);
    }
}
