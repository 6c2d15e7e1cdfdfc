package io.rondo.server.cluster.haproxy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * HAProxy's configuration for a cluster of Rondo nodes (papers/004 Section 6, one service over several nodes):
 * {@code haproxy.cfg} and the {@code rondo-placement.lua} it loads, which send every request that names an object
 * straight to a node that holds it, with no hop through another node.
 *
 * <p>HAProxy learns placement by computing it: the Lua action weighs the object against the nodes this
 * configuration was written for, as the nodes do ({@link io.rondo.content.cluster.Rendezvous}), and picks the
 * backend of the object's owner set. There is one backend per set of {@code r} nodes, C(n, r) of them, each with
 * its {@code r} servers; within one, HAProxy's consistent hash of the object's name (bounded by
 * {@code hash-balance-factor}) picks the replica, so an object's requests meet the same node's cache while the
 * set's objects spread over its nodes. The backend's name is the owners in name order, not in weight order: the
 * set is what matters to the hash, and name order gives C(n, r) backends instead of n!/(n-r)!. Nothing is kept
 * current at run time: a node that joins or leaves means a new configuration and a reload.
 *
 * <p>Every server has an HTTP health check ({@code HEAD /favicon.ico}) and an agent check (the node's headroom: weight,
 * {@code maxconn}, {@code drain}); a request that meets a refused connection, no answer, a timeout, a 503 or a
 * 404 (a new owner the object has not reached yet) is tried again on the set's other replica. What does not name
 * an object (the player's files, folder pages) goes to any node, and so does the TCP stream port, whose object is
 * inside the OPEN frame: a node that does not hold it answers with a redirect.
 */
public final class HaproxyConfig {

    /** The configuration's file name. */
    public static final String CONFIG_FILE = "haproxy.cfg";
    /** The placement action's file name, written beside the configuration. */
    public static final String LUA_FILE = "rondo-placement.lua";

    /**
     * The most owner-set backends a configuration may have: each one runs its own health and agent checks on
     * its servers, so beyond this the checks alone load the nodes and HAProxy's start.
     */
    static final int MAX_OWNER_SETS = 10_000;

    private static final Pattern BIND =
        Pattern.compile("(|\\*|[A-Za-z0-9][A-Za-z0-9.-]*|\\[[0-9A-Fa-f:.]+]):(\\d{1,5})");

    private final List<HaproxyNode> nodes;
    private final int replicas;
    private final String httpBind;
    private final String streamBind;
    private final Path statsSocket;
    private final String statsBind;

    /**
     * A configuration with an HTTP frontend only.
     *
     * @param nodes the cluster's nodes, in any order
     * @param replicas how many nodes hold each object ({@code cluster.replicas}); more than the nodes means all
     * @param httpBind where HAProxy listens for HTTP, {@code HOST:PORT} ({@code :PORT} or {@code *:PORT} for every
     *     address)
     * @throws IllegalArgumentException if there is no node, two share a name, {@code replicas} is not positive,
     *     the owner sets are too many, or the address is not {@code HOST:PORT}
     */
    public HaproxyConfig(List<HaproxyNode> nodes, int replicas, String httpBind) {
        this(sorted(nodes), checkedReplicas(replicas), bind("HTTP", httpBind), null, null, null);
        if (ownerSetsPastLimit(this.nodes.size(), effectiveReplicas())) {
            throw new IllegalArgumentException(this.nodes.size() + " nodes with " + replicas + " replicas make more"
                + " than " + MAX_OWNER_SETS + " owner sets (C(n, r)), each a backend with its own checks");
        }
    }

    private HaproxyConfig(List<HaproxyNode> nodes, int replicas, String httpBind, String streamBind,
                          Path statsSocket, String statsBind) {
        this.nodes = nodes;
        this.replicas = replicas;
        this.httpBind = httpBind;
        this.streamBind = streamBind;
        this.statsSocket = statsSocket;
        this.statsBind = statsBind;
    }

    /** This configuration with a TCP frontend for the stream protocol at {@code bind}, {@code HOST:PORT}. */
    public HaproxyConfig withStreamBind(String bind) {
        return new HaproxyConfig(nodes, replicas, httpBind, bind("stream", bind), statsSocket, statsBind);
    }

    /** This configuration with HAProxy's runtime API (admin level) on a Unix socket at {@code socket}. */
    public HaproxyConfig withStatsSocket(Path socket) {
        return new HaproxyConfig(nodes, replicas, httpBind, streamBind, socket.toAbsolutePath(), statsBind);
    }

    /** This configuration with HAProxy's stats page ({@code /stats}) and Prometheus metrics ({@code /metrics}). */
    public HaproxyConfig withStatsBind(String bind) {
        return new HaproxyConfig(nodes, replicas, httpBind, streamBind, statsSocket, bind("stats", bind));
    }

    /** The nodes, in name order. */
    public List<HaproxyNode> nodes() {
        return nodes;
    }

    /** How many nodes hold each object: the replicas asked for, or all the nodes if they are fewer. */
    public int effectiveReplicas() {
        return Math.min(replicas, nodes.size());
    }

    /**
     * The backend of the requests for an object these nodes hold: {@code owners_} and their names in name order,
     * joined by {@code _}, as the Lua action names it.
     */
    public static String ownerBackend(List<String> owners) {
        return "owners_" + String.join("_", owners.stream().sorted().toList());
    }

    /**
     * Writes {@link #CONFIG_FILE} and {@link #LUA_FILE} into {@code folder} (made if missing), the configuration
     * loading the Lua file by its absolute path; returns the configuration's path.
     */
    public Path write(Path folder) throws IOException {
        Path absolute = folder.toAbsolutePath();
        Files.createDirectories(absolute);
        Path lua = absolute.resolve(LUA_FILE);
        Files.writeString(lua, placementLua(), StandardCharsets.UTF_8);
        Path config = absolute.resolve(CONFIG_FILE);
        Files.writeString(config, haproxyCfg(lua), StandardCharsets.UTF_8);
        return config;
    }

    /** The placement action's Lua text. */
    public String placementLua() {
        return PlacementLua.text(nodes.stream().map(HaproxyNode::name).toList(), effectiveReplicas());
    }

    /** The text of {@code haproxy.cfg}, loading the placement action from {@code luaFile}. */
    public String haproxyCfg(Path luaFile) {
        return new HaproxyCfgText(this).text(luaFile.toAbsolutePath());
    }

    String httpBind() {
        return httpBind;
    }

    /** Null when there is no stream frontend. */
    String streamBind() {
        return streamBind;
    }

    /** Null when there is no runtime API socket. */
    Path statsSocket() {
        return statsSocket;
    }

    /** Null when there is no stats page. */
    String statsBind() {
        return statsBind;
    }

    /** Every owner set: each combination of {@code replicas} of the nodes, names in order. */
    List<List<HaproxyNode>> ownerSets() {
        List<List<HaproxyNode>> sets = new ArrayList<>();
        combine(0, new ArrayList<>(), sets);
        return sets;
    }

    private void combine(int from, List<HaproxyNode> chosen, List<List<HaproxyNode>> sets) {
        if (chosen.size() == effectiveReplicas()) {
            sets.add(List.copyOf(chosen));
            return;
        }
        for (int i = from; i <= nodes.size() - (effectiveReplicas() - chosen.size()); i++) {
            chosen.add(nodes.get(i));
            combine(i + 1, chosen, sets);
            chosen.remove(chosen.size() - 1);
        }
    }

    /** Whether C(n, r) is more than {@link #MAX_OWNER_SETS}, computed no further than needed to tell. */
    private static boolean ownerSetsPastLimit(int n, int r) {
        long sets = 1;
        for (int i = 1; i <= r; i++) {
            sets = sets * (n - r + i) / i;
            if (sets > MAX_OWNER_SETS) {
                return true;
            }
        }
        return false;
    }

    private static List<HaproxyNode> sorted(List<HaproxyNode> nodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one node");
        }
        Set<String> names = new HashSet<>();
        for (HaproxyNode node : nodes) {
            if (!names.add(node.name())) {
                throw new IllegalArgumentException("two nodes are named " + node.name());
            }
        }
        return nodes.stream().sorted(Comparator.comparing(HaproxyNode::name)).toList();
    }

    private static int checkedReplicas(int replicas) {
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
        }
        return replicas;
    }

    private static String bind(String which, String address) {
        var matcher = BIND.matcher(address);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(which + " address '" + address + "' is not HOST:PORT");
        }
        int port = Integer.parseInt(matcher.group(2));
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException(which + " address '" + address + "': port " + port
                + " is not 1 to 65535");
        }
        return address;
    }
}
