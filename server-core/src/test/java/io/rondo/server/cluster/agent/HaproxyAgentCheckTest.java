package io.rondo.server.cluster.agent;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real HAProxy (Debian's 2.6) checking a node's agent: the server is UP at full weight, DRAIN
 * once the node is drained, UP again once the drain ends. Skipped, saying so, where haproxy is not
 * installed, unless {@code -Drondo.haproxy.required=true}.
 */
@Timeout(60)
class HaproxyAgentCheckTest {

    private static final String HAPROXY = "/usr/sbin/haproxy";

    @TempDir
    Path temp;

    @Test
    void haproxyMarksTheServerDrainWhileTheNodeIsDrainedAndUpOnceItIsReady() throws Exception {
        Path haproxy = Path.of(HAPROXY);
        String missing = "haproxy is not installed at " + HAPROXY + ": the agent check against it is skipped";
        if (Boolean.getBoolean("rondo.haproxy.required")) {
            assertTrue(Files.isExecutable(haproxy), missing);
        }
        assumeTrue(Files.isExecutable(haproxy), missing);
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
             RondoServer server = RondoServer.start(new RondoContext().library(library).model(DiskProfile.paperDisk())
                 .agentPort(0).tokens(AdminTokens.of("admin-token-of-the-haproxy-test", "read-token-of-the-test")))) {
            InetSocketAddress http = server.http().address();
            InetSocketAddress agent = server.agentAddress().orElseThrow();
            Path socket = temp.resolve("haproxy.sock");
            Path config = Files.writeString(temp.resolve("haproxy.cfg"), String.join("\n",
                "global",
                "    stats socket " + socket + " level admin",
                "defaults",
                "    mode http",
                "    timeout connect 1s",
                "    timeout client 5s",
                "    timeout server 5s",
                "backend rondo",
                "    server n1 " + http.getHostString() + ":" + http.getPort() + " weight 100 check inter 200ms"
                    + " agent-check agent-port " + agent.getPort() + " agent-inter 100ms",
                ""));
            Process balancer = new ProcessBuilder(HAPROXY, "-db", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(temp.resolve("haproxy.log").toFile()).start();
            try {
                await("haproxy sees the node up at full weight").atMost(Duration.ofSeconds(20))
                    .until(() -> server(socket).startsWith("UP,100"));

                server.streams().drain().byOperator(true);
                await("haproxy drains the node").atMost(Duration.ofSeconds(20))
                    .until(() -> server(socket).startsWith("DRAIN (agent),"));

                server.streams().drain().byOperator(false);
                await("haproxy takes the node back").atMost(Duration.ofSeconds(20))
                    .until(() -> server(socket).startsWith("UP,100"));
            } finally {
                balancer.destroy();
                balancer.waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * The server's status and weight as HAProxy's stats show them ({@code UP,100}, {@code DRAIN (agent),100});
     * empty before it answers.
     */
    private static String server(Path socket) {
        String stats;
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.write(ByteBuffer.wrap("show stat\n".getBytes(StandardCharsets.US_ASCII)));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            while (channel.read(buffer) >= 0) {
                out.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
            stats = out.toString(StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "";
        }
        String[] header = stats.lines().findFirst().orElse("").replace("# ", "").split(",", -1);
        int status = indexOf(header, "status");
        int weight = indexOf(header, "weight");
        return stats.lines().filter(line -> line.startsWith("rondo,n1,")).findFirst()
            .map(line -> line.split(",", -1)).map(fields -> fields[status] + "," + fields[weight]).orElse("");
    }

    private static int indexOf(String[] header, String name) {
        for (int i = 0; i < header.length; i++) {
            if (header[i].equals(name)) {
                return i;
            }
        }
        throw new AssertionError("haproxy's stats have no column " + name);
    }
}
