package io.rondo.server.cluster.haproxy;

import java.nio.file.Path;
import java.util.List;

/**
 * The text of {@code haproxy.cfg}, section by section: global, defaults, the HTTP frontend and its backends, the
 * TCP stream frontend and its backend, the stats page. Its comments say why each part is there, for whoever reads
 * the file on the machine that runs HAProxy.
 */
final class HaproxyCfgText {

    /** The backend of whatever names no object: every node. */
    static final String ANY_NODE = "any_node";
    /** The TCP stream port's backend: every node. */
    static final String STREAM_NODES = "stream_nodes";

    private final HaproxyConfig config;
    private final List<HaproxyNode> nodes;
    private final StringBuilder out = new StringBuilder();

    HaproxyCfgText(HaproxyConfig config) {
        this.config = config;
        this.nodes = config.nodes();
    }

    String text(Path luaFile) {
        header();
        global(luaFile);
        defaults();
        httpFrontend();
        anyNode();
        lines("# One backend per owner set, its nodes in name order, the Lua action's choice for an object: among the",
            "# replicas, a consistent hash of the object, so its requests meet the same node's cache while the set's",
            "# objects spread over its nodes, and no node takes more than 1.5 times the set's mean of concurrent",
            "# requests (hash-balance-factor).");
        config.ownerSets().forEach(this::ownerSet);
        if (config.streamBind() != null) {
            streams();
        }
        if (config.statsBind() != null) {
            stats();
        }
        return out.toString();
    }

    private void header() {
        lines("# haproxy.cfg for a Rondo cluster of " + nodes.size() + " nodes, each object on "
                + config.effectiveReplicas() + " of them,",
            "# written by `rondo cluster haproxy-config` with rondo-placement.lua beside it. Do not edit: when a node",
            "# joins or leaves, write both again and reload HAProxy (`systemctl reload haproxy`, or SIGUSR2 to the",
            "# master process of `haproxy -W`); `rondo cluster rebalance` moves the objects to their new owners.",
            "#",
            "# Placement: an object lives on the nodes of highest rendezvous weight, XXH64 (seed 0) of the node's",
            "# name followed by the object's name. HAProxy learns it by computing it: rondo-placement.lua runs the",
            "# same hash over the nodes listed here with HAProxy's xxh64 converter. There is no map to keep current",
            "# and no node is asked: a request that names an object goes straight to a node that holds it, with no",
            "# extra hop.",
            "");
    }

    private void global(Path luaFile) {
        lines("global",
            "    log stderr format raw daemon notice",
            "    # One Lua state per thread: the placement action takes no lock.",
            "    lua-load-per-thread " + luaFile);
        if (config.statsSocket() != null) {
            lines("    # The runtime API: show stat, set server ... state drain|ready, and a seamless reload.",
                "    stats socket " + config.statsSocket() + " mode 600 level admin expose-fd listeners");
        }
        lines("");
    }

    private void defaults() {
        lines("defaults",
            "    log global",
            "    mode http",
            "    option dontlognull",
            "    timeout connect 2s",
            "    timeout client 60s",
            "    timeout server 60s",
            "    timeout http-request 10s",
            "    timeout http-keep-alive 10s",
            "    timeout queue 10s",
            "    timeout check 2s",
            "    # A WebSocket or TCP stream may be quiet for a while (a paused player): an hour of silence ends it.",
            "    timeout tunnel 1h",
            "    # A refused connection, no answer, a timeout or a 503 (a node with no room, or draining) is tried",
            "    # again on another server of the backend, that is on another replica of the object; so is a 404,",
            "    # from a new owner the object has not reached yet while rondo cluster rebalance moves it.",
            "    retries 3",
            "    option redispatch 1",
            "    retry-on 503 404 conn-failure empty-response response-timeout",
            "    # A node is up while it answers HEAD /favicon.ico, which it answers from memory whatever its library",
            "    # (its home page, /, lists the library, at a cost that grows with it). Its agent (the agent port)",
            "    # reports its headroom from its admission state: a weight, maxconn, drain when full or stopping, down",
            "    # when its disks fail. Its weight is a percentage of the server's weight, so that starts at 100: of",
            "    # HAProxy's default 1, any share under 100% would leave 0, a node HAProxy sends nothing.",
            "    option httpchk",
            "    http-check send meth HEAD uri /favicon.ico",
            "    http-check expect status 200",
            "    default-server check inter 1s fall 2 rise 2 agent-check agent-inter 1s weight 100",
            "");
    }

    private void httpFrontend() {
        lines("frontend http_in",
            "    bind " + config.httpBind(),
            "    # The path as a node reads it: percent-decoded, the query left out.",
            "    http-request set-var(txn.rondo_path) path,url_dec",
            "    acl folder       var(txn.rondo_path) -m end /",
            "    acl player       var(txn.rondo_path) -m beg /player/",
            "    acl object_info  var(txn.rondo_path) -m beg /player/info/",
            "    acl stream       var(txn.rondo_path) -m beg /stream/",
            "    acl stream_bare  var(txn.rondo_path) -m str /stream",
            "    acl websocket    hdr(upgrade) -i websocket",
            "    # Which object a request names: a path is an object's name, but for the player's files, folder",
            "    # pages (paths ending in /) and /stream, which name none; /player/info/NAME and the WebSocket stream",
            "    # binding /stream/NAME name /NAME. A later rule overrides an earlier one.",
            "    http-request set-var(txn.rondo_object) var(txn.rondo_path) if !player !folder !stream_bare",
            "    http-request set-var(txn.rondo_object) var(txn.rondo_path),regsub(^/player/info/,/)"
                + " if object_info !folder",
            "    http-request set-var(txn.rondo_object) var(txn.rondo_path),regsub(^/stream/,/)"
                + " if stream websocket !folder",
            "    # The object's owners' backend, computed by rondo-placement.lua.",
            "    http-request lua." + PlacementLua.ACTION + " if { var(txn.rondo_object) -m found }",
            "    use_backend %[var(txn.rondo_backend)] if { var(txn.rondo_backend) -m found }",
            "    default_backend " + ANY_NODE,
            "");
    }

    private void anyNode() {
        lines("# What names no object: any node, the least busy first (a page is quick, a /stream WebSocket long).",
            "backend " + ANY_NODE,
            "    balance leastconn");
        nodes.forEach(this::httpServer);
        lines("");
    }

    private void ownerSet(List<HaproxyNode> set) {
        lines("backend " + HaproxyConfig.ownerBackend(set.stream().map(HaproxyNode::name).toList()),
            "    balance hash var(txn.rondo_object)",
            "    hash-type consistent",
            "    hash-balance-factor 150");
        set.forEach(this::httpServer);
        lines("");
    }

    private void httpServer(HaproxyNode node) {
        lines("    server " + node.name() + " " + node.host() + ":" + node.httpPort()
            + " agent-port " + node.agentPort());
    }

    private void streams() {
        lines("# The stream protocol's TCP port: its object is inside the OPEN frame, which HAProxy does not read,",
            "# so any node, the one with the fewest streams first; a node that does not hold the object redirects",
            "# the client to one that does. A node is checked on its HTTP port, as in the HTTP backends.",
            "frontend stream_in",
            "    mode tcp",
            "    bind " + config.streamBind(),
            "    default_backend " + STREAM_NODES,
            "",
            "backend " + STREAM_NODES,
            "    mode tcp",
            "    balance leastconn");
        for (HaproxyNode node : nodes) {
            lines("    server " + node.name() + " " + node.host() + ":" + node.streamPort() + " port " + node.httpPort()
                + " agent-port " + node.agentPort());
        }
        lines("");
    }

    private void stats() {
        lines("frontend stats",
            "    bind " + config.statsBind(),
            "    http-request use-service prometheus-exporter if { path /metrics }",
            "    stats enable",
            "    stats uri /stats",
            "    stats refresh 5s",
            "");
    }

    private void lines(String... lines) {
        for (String line : lines) {
            out.append(line).append('\n');
        }
    }
}
