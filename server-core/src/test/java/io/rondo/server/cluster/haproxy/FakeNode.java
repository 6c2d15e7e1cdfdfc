package io.rondo.server.cluster.haproxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in for a Rondo node's HTTP port and agent port: answers every request with 200 and a header naming
 * itself, and its health check ({@code HEAD /favicon.ico}) always; told to refuse, it answers everything else
 * 503 as a node with no room does, or 404 as a new owner an object has not reached yet does. Its agent answers
 * HAProxy's agent check with {@code up ready}, or {@code drain} once drained.
 */
final class FakeNode implements AutoCloseable {

    /** The header that names the node that answered. */
    static final String HEADER = "X-Rondo-Node";

    private final String name;
    private final HttpServer server;
    private final ServerSocket agent;
    private volatile int refusal;
    private volatile String agentSays = "up ready\n";

    FakeNode(String name) throws IOException {
        this.name = name;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
        this.agent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread agentThread = new Thread(this::agent, name + "-agent");
        agentThread.setDaemon(true);
        agentThread.start();
    }

    int agentPort() {
        return agent.getLocalPort();
    }

    /** From now on, its agent reports this share of its room, {@code up ready N%}, as a part-busy node does. */
    void weight(int percent) {
        agentSays = "up ready " + percent + "%\n";
    }

    /** From now on, its agent tells HAProxy to send it nothing new. */
    void drain() {
        agentSays = "drain\n";
    }

    private void agent() {
        while (!agent.isClosed()) {
            try (Socket check = agent.accept()) {
                check.getOutputStream().write(agentSays.getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                if (agent.isClosed()) {
                    return;
                }
            }
        }
    }

    String name() {
        return name;
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** From now on, answers {@code status} but to its health check. */
    void refuse(int status) {
        refusal = status;
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            boolean health = exchange.getRequestMethod().equals("HEAD");
            byte[] body = name.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set(HEADER, name);
            exchange.sendResponseHeaders(refusal != 0 && !health ? refusal : 200, health ? -1 : body.length);
            if (!health) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** Stops listening at once, as a node killed does. */
    @Override
    public void close() {
        server.stop(0);
        try {
            agent.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
