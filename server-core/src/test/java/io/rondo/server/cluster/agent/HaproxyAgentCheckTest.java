package io.rondo.server.cluster.agent;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.cluster.haproxy.HaproxyBinary;
import io.rondo.server.cluster.haproxy.HaproxyProcess;
import io.rondo.server.cluster.haproxy.InstalledHaproxy;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/**
 * The real HAProxy (Debian's 2.6) checking a node's agent: the server is UP at full weight, DRAIN
 * once the node is drained, UP again once the drain ends. Skipped, saying so, where haproxy is not
 * installed, unless {@code -Drondo.haproxy.required=true}.
 */
@Timeout(60)
class HaproxyAgentCheckTest {

    @TempDir
    Path temp;

    @Test
    void haproxyMarksTheServerDrainWhileTheNodeIsDrainedAndUpOnceItIsReady() throws Exception {
        HaproxyBinary binary = InstalledHaproxy.binary();
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
             RondoServer server = RondoServer.start(new RondoContext().library(library).model(DiskProfile.paperDisk())
                 .agentPort(0).tokens(AdminTokens.of("admin-token-of-the-haproxy-test", "read-token-of-the-test")))) {
            InetSocketAddress http = server.http().address();
            InetSocketAddress agent = server.agentAddress().orElseThrow();
            Path socket = temp.resolve("haproxy.sock");
            int port = HaproxyProcess.freeLoopbackPort();
            Path config = Files.writeString(temp.resolve("haproxy.cfg"), String.join("\n",
                "global",
                "    stats socket " + socket + " level admin",
                "defaults",
                "    mode http",
                "    timeout connect 1s",
                "    timeout client 5s",
                "    timeout server 5s",
                "frontend objects",
                "    bind 127.0.0.1:" + port,
                "    default_backend rondo",
                "backend rondo",
                "    server n1 " + http.getHostString() + ":" + http.getPort() + " weight 100 check inter 200ms"
                    + " agent-check agent-port " + agent.getPort() + " agent-inter 100ms",
                ""));
            HaproxyProcess haproxy = HaproxyProcess.start(binary, config, port, SystemClocks.nanoClock());
            try {
                await("haproxy sees the node up at full weight").atMost(Duration.ofSeconds(20))
                    .until(() -> server(socket).equals("UP,100"));

                server.streams().drain().byOperator(true);
                await("haproxy drains the node").atMost(Duration.ofSeconds(20))
                    .until(() -> server(socket).startsWith("DRAIN (agent),"));

                server.streams().drain().byOperator(false);
                await("haproxy takes the node back").atMost(Duration.ofSeconds(20))
                    .until(() -> server(socket).equals("UP,100"));
            } finally {
                haproxy.close();
            }
        }
    }

    /** The server's status and weight as HAProxy's stats show them: {@code UP,100}, {@code DRAIN (agent),100}. */
    private static String server(Path socket) throws IOException {
        Map<String, String> n1 = HaproxyProcess.serverStats(socket).stream()
            .filter(server -> server.get("pxname").equals("rondo") && server.get("svname").equals("n1"))
            .findFirst().orElseThrow();
        return n1.get("status") + "," + n1.get("weight");
    }
}
