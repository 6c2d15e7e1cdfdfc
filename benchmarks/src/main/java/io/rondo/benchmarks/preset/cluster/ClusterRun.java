package io.rondo.benchmarks.preset.cluster;

import io.rondo.client.protocol.ClientProfile;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster preset's two measurements on one cluster of nodes behind HAProxy: streams opened through
 * HAProxy's stream port until admission refuses, then played together while their late fragments are
 * counted (scale-out); and, on three nodes, a node killed with {@code kill -9} while streams play, each
 * affected stream followed until it goes on, and every object read back through HAProxy (a node killed
 * under load).
 */
final class ClusterRun {

    /** What a run opens and how long it plays. */
    record Setup(List<String> objects, ClientProfile profile, long roundMs, int playRounds, int refusalsToStop,
                 int maxStreams, int reconnects) {
    }

    /**
     * Scale-out on {@code nodes} nodes: streams admitted, what the refusals were, streams per node, late fragments
     * (the nodes' glitches) and streams that failed while they played.
     */
    record ScaleOut(int nodes, int admitted, Map<String, Integer> refused, Map<String, Long> perNode, long late,
                    int failed) {
    }

    /**
     * A node killed under load: the streams playing, the node killed and the streams it served, the streams whose
     * connection was lost and those that went on, their gaps against what their players held, late fragments,
     * and the objects not read back whole through HAProxy afterwards.
     */
    record Kill(int streams, Map<String, Long> perNode, String killed, long affectedOnNode, int affected,
                int resumed, List<Player.GapSeen> gaps, long late, int objects, int lost, List<String> failures) {
    }

    /**
     * The wait after a refusal before the next OPEN: HAProxy's agent interval, so that a node full for a moment
     * (its agent said {@code drain}) is asked again once its agent has spoken again.
     */
    private static final long REFUSAL_PAUSE_MS = 1000;

    private static final Duration RESUME_LIMIT = Duration.ofSeconds(40);

    private final ClusterRig rig;
    private final Setup setup;
    private final NanoClock clock;
    private final PrintWriter log;

    ClusterRun(ClusterRig rig, Setup setup, NanoClock clock, PrintWriter log) {
        this.rig = rig;
        this.setup = setup;
        this.clock = clock;
        this.log = log;
    }

    /** Uploads {@code clip} under each of the setup's names through the first node; returns where each went. */
    Map<String, String> upload(Path clip) throws IOException {
        Map<String, String> holders = new LinkedHashMap<>();
        for (String object : setup.objects()) {
            holders.put(object, rig.upload(clip, object));
        }
        rig.awaitListed(setup.objects());
        log.printf(Locale.ROOT, "  uploaded %d objects: %s%n", holders.size(), holders);
        return holders;
    }

    /** Opens streams until admission refuses {@code refusalsToStop} in a row, plays them, and closes them. */
    ScaleOut scaleOut(int nodes) throws IOException {
        Map<String, Integer> refused = new TreeMap<>();
        List<Player> players = new ArrayList<>();
        try {
            int inARow = 0;
            for (int i = 0; inARow < setup.refusalsToStop() && players.size() < setup.maxStreams(); i++) {
                Player.Opened opened = open(setup.objects().get(i % setup.objects().size()));
                if (opened.answer() == Player.Answer.ACCEPTED) {
                    players.add(opened.player());
                    inARow = 0;
                } else {
                    refused.merge(opened.why(), 1, Integer::sum);
                    inARow++;
                    ClusterRig.pause(REFUSAL_PAUSE_MS);
                }
            }
            long glitchesBefore = glitches(rig.meters());
            ClusterRig.pause(setup.playRounds() * setup.roundMs());
            Map<String, NodeApi.Meters> meters = rig.meters();
            Map<String, Long> perNode = new TreeMap<>();
            meters.forEach((node, meter) -> perNode.put(node, meter.streams()));
            long late = glitches(meters);
            int failed = (int) players.stream().filter(Player::failed).count();
            log.printf(Locale.ROOT, "  %d node%s: %d admitted (%s after), per node %s, %d late (%d by the ramp's end), "
                    + "%d failed; measured inflation %s%n", nodes, nodes == 1 ? "" : "s", players.size(), refused,
                perNode, late, glitchesBefore, failed, inflation(meters));
            return new ScaleOut(nodes, players.size(), refused, perNode, late, failed);
        } finally {
            players.forEach(Player::close);
        }
    }

    /**
     * Plays {@code streams} streams on the cluster, kills the node serving the most with {@code kill -9}, waits
     * until every stream it served has gone on elsewhere (or 40 s), plays on, and reads
     * every object back through HAProxy against {@code before} (each object's status and digest before the kill).
     */
    Kill kill(int streams, Map<String, NodeApi.Fetched> before) throws IOException, InterruptedException {
        rig.awaitIdle();
        rig.awaitReady();
        long lateBefore = glitches(rig.meters());
        List<Player> players = new ArrayList<>();
        try {
            for (int i = 0; players.size() < streams; i++) {
                Player.Opened opened = open(setup.objects().get(i % setup.objects().size()));
                if (opened.answer() == Player.Answer.REFUSED) {
                    throw new IOException("the cluster refused stream " + (players.size() + 1) + " of " + streams
                        + " (" + opened.why() + "): ask for fewer with --kill-streams");
                }
                if (opened.player() != null) {
                    players.add(opened.player());
                }
            }
            ClusterRig.pause(setup.playRounds() * setup.roundMs());
            Map<String, NodeApi.Meters> meters = rig.meters();
            Map<String, Long> perNode = new TreeMap<>();
            meters.forEach((node, meter) -> perNode.put(node, meter.streams()));
            String victim = perNode.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            long victimLate = meters.get(victim).glitches();
            log.printf(Locale.ROOT, "  %d streams playing, per node %s: kill -9 %s%n", players.size(), perNode,
                victim);
            rig.kill(victim);
            long affectedOnNode = perNode.get(victim);
            long giveUpNs = clock.nanoTime() + RESUME_LIMIT.toNanos();
            while (settled(players) < affectedOnNode && clock.nanoTime() - giveUpNs < 0) {
                ClusterRig.pause(100);
            }
            ClusterRig.pause(setup.playRounds() * setup.roundMs());
            long late = glitches(rig.meters()) + victimLate - lateBefore;
            int affected = settled(players);
            int resumed = (int) players.stream().filter(p -> !p.gaps().isEmpty() && !p.failed()).count();
            List<Player.GapSeen> gaps = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            for (Player player : players) {
                gaps.addAll(player.gaps());
                if (player.failed()) {
                    failures.add(player.object() + ": " + player.failure());
                }
            }
            gaps.sort(Comparator.comparingLong(Player.GapSeen::lengthNs));
            int lost = 0;
            for (Map.Entry<String, NodeApi.Fetched> object : before.entrySet()) {
                NodeApi.Fetched after = rig.get(object.getKey());
                if (!after.equals(object.getValue())) {
                    lost++;
                    failures.add(object.getKey() + " read back through HAProxy as " + after + ", before the kill "
                        + object.getValue());
                }
            }
            log.printf(Locale.ROOT, "  %s served %d streams: %d lost their connection, %d went on; %d gaps; %d late;"
                + " %d of %d objects lost%n", victim, affectedOnNode, affected, resumed, gaps.size(), late, lost,
                before.size());
            return new Kill(players.size(), perNode, victim, affectedOnNode, affected, resumed, gaps, late,
                before.size(), lost, failures);
        } finally {
            players.forEach(Player::close);
        }
    }

    /** Each object read through HAProxy now: status, length and digest. */
    Map<String, NodeApi.Fetched> readAll() throws IOException {
        Map<String, NodeApi.Fetched> read = new LinkedHashMap<>();
        for (String object : setup.objects()) {
            NodeApi.Fetched fetched = rig.get(object);
            if (fetched.status() != 200) {
                throw new IOException("GET " + object + " through HAProxy answered " + fetched.status());
            }
            read.put(object, fetched);
        }
        return read;
    }

    /** Streams whose connection was lost: picked up again (a gap closed) or failed. */
    private static int settled(List<Player> players) {
        return (int) players.stream().filter(p -> !p.gaps().isEmpty() || p.failed()).count();
    }

    /** Opens one stream through HAProxy; a node still measuring its disk is asked again after a second. */
    private Player.Opened open(String object) throws IOException {
        while (true) {
            Player.Opened opened = Player.open(rig.streamPort(), object, setup.profile(), setup.reconnects(), clock);
            if (opened.answer() != Player.Answer.MEASURING) {
                return opened;
            }
            ClusterRig.pause(1000);
        }
    }

    private static String inflation(Map<String, NodeApi.Meters> meters) {
        List<String> each = new ArrayList<>();
        meters.forEach((node, meter) -> each.add(String.format(Locale.ROOT, "%s %.2f", node, meter.inflation())));
        return String.join(", ", each);
    }

    private static long glitches(Map<String, NodeApi.Meters> meters) {
        return meters.values().stream().mapToLong(NodeApi.Meters::glitches).sum();
    }
}
