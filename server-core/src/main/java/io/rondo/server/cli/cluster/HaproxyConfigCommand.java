package io.rondo.server.cli.cluster;

import io.rondo.server.cluster.haproxy.HaproxyBinary;
import io.rondo.server.cluster.haproxy.HaproxyConfig;
import io.rondo.server.cluster.haproxy.HaproxyNode;
import io.rondo.server.config.ClusterSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code rondo cluster haproxy-config}: writes HAProxy's configuration for the cluster's nodes, and has HAProxy
 * check it where it is installed.
 */
@Command(name = "haproxy-config",
    description = {"Write HAProxy's configuration for the cluster: haproxy.cfg and rondo-placement.lua.",
        "HAProxy computes each object's owners as the nodes do (rendezvous hashing), so a request goes straight to "
            + "a node that holds its object; HTTP health and agent checks on every node, and retries on another "
            + "replica. When a node joins or leaves, write it again and reload HAProxy.",
        "Where haproxy is installed, the result is checked with haproxy -c."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class HaproxyConfigCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR",
        description = "The folder to write haproxy.cfg and rondo-placement.lua into (made if missing).")
    private Path out;

    @Option(names = "--node", paramLabel = "NAME=HOST:HTTP:STREAM:AGENT",
        converter = NodeConverter.class,
        description = "A node: its name in the cluster, its host and its HTTP, stream and agent ports. Repeat for "
            + "each node. Without it, the nodes of the configuration's cluster: section.")
    private List<HaproxyNode> nodes;

    @Option(names = "--replicas", paramLabel = "N",
        description = "How many nodes hold each object (default: cluster.replicas of the configuration).")
    private Integer replicas;

    @Mixin
    private ClusterConfigOption clusterConfig;

    @Option(names = "--bind", defaultValue = "127.0.0.1:8000", paramLabel = "HOST:PORT",
        description = "Where HAProxy listens for HTTP: objects, pages, the player, WebSocket streams "
            + "(default: ${DEFAULT-VALUE}; :PORT for every address).")
    private String bind;

    @Option(names = "--stream-bind", defaultValue = "127.0.0.1:8001", paramLabel = "HOST:PORT",
        description = "Where HAProxy listens for the TCP stream protocol (default: ${DEFAULT-VALUE}).")
    private String streamBind;

    @Option(names = "--stats-socket", paramLabel = "PATH",
        description = "HAProxy's runtime API socket (default: haproxy.sock in the --out folder).")
    private Path statsSocket;

    @Option(names = "--stats-bind", paramLabel = "HOST:PORT",
        description = "Where HAProxy serves its stats page (/stats) and Prometheus metrics (/metrics); none if not "
            + "given.")
    private String statsBind;

    @Override
    public Integer call() throws IOException, InterruptedException {
        ClusterSettings cluster = clusterConfig.settings().clusterSettings();
        if (nodes == null) {
            if (cluster.nodes().isEmpty()) {
                throw new IllegalArgumentException("no nodes: give --node NAME=HOST:HTTP:STREAM:AGENT for each, or "
                    + "list them in the configuration's cluster.nodes");
            }
            nodes = cluster.nodes().stream().map(node -> new HaproxyNode(node.name(), node.host(),
                node.ports().http(), node.ports().stream(), node.ports().agent())).toList();
        }
        HaproxyConfig config = new HaproxyConfig(nodes, replicas != null ? replicas : cluster.replicas(), bind)
            .withStreamBind(streamBind)
            .withStatsSocket(statsSocket != null ? statsSocket : out.resolve("haproxy.sock"));
        if (statsBind != null) {
            config = config.withStatsBind(statsBind);
        }
        Path written = config.write(out);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println("wrote " + written + " and " + written.resolveSibling(HaproxyConfig.LUA_FILE) + ": "
            + config.nodes().size() + " nodes, each object on " + config.effectiveReplicas() + " of them");
        Optional<HaproxyBinary> haproxy = HaproxyBinary.find();
        if (haproxy.isEmpty()) {
            stdout.println("haproxy is not installed here: the configuration was not checked");
            return 0;
        }
        HaproxyBinary.Verdict verdict = haproxy.get().check(written);
        stdout.println(haproxy.get().path() + " -c: " + verdict.output());
        if (!verdict.valid()) {
            throw new IllegalStateException("haproxy refuses " + written);
        }
        return 0;
    }

    /** {@code NAME=HOST:HTTP:STREAM:AGENT}, the host possibly a bracketed IPv6 address. */
    static final class NodeConverter implements ITypeConverter<HaproxyNode> {
        @Override
        public HaproxyNode convert(String value) {
            int equals = value.indexOf('=');
            String[] address = value.substring(equals + 1).split(":");
            if (equals < 0 || address.length < 4) {
                throw new TypeConversionException("'" + value + "' is not NAME=HOST:HTTP:STREAM:AGENT");
            }
            int ports = address.length - 3;
            String host = String.join(":", List.of(address).subList(0, ports));
            try {
                return new HaproxyNode(value.substring(0, equals), host, Integer.parseInt(address[ports]),
                    Integer.parseInt(address[ports + 1]), Integer.parseInt(address[ports + 2]));
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "': the ports are not numbers");
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
