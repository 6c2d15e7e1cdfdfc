package io.rondo.server.cluster.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Reads a node's agent line as HAProxy's check does: connect, read up to the first line end (or
 * the close), parse. How a node learns its peers' headroom. Blocking: call it off any event loop.
 */
public final class AgentProbe {

    private AgentProbe() {
    }

    /**
     * The line the agent at {@code address} answers.
     *
     * @param timeout how long the connection and the line may each take
     * @throws IOException when the agent cannot be reached, is silent past {@code timeout}, or answers
     *                     what is no agent line
     */
    public static AgentLine read(InetSocketAddress address, Duration timeout) throws IOException {
        int timeoutMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try (Socket socket = new Socket()) {
            socket.connect(address, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b >= 0 && b != '\n' && b != '\r'; b = in.read()) {
                if (line.size() == AgentLine.MAX_CHARS) {
                    throw new IOException("the agent at " + address + " sent more than " + AgentLine.MAX_CHARS
                        + " characters without a line end");
                }
                line.write(b);
            }
            try {
                return AgentLine.parse(line.toString(StandardCharsets.US_ASCII));
            } catch (IllegalArgumentException e) {
                throw new IOException("the agent at " + address + " answered no agent line: " + e.getMessage(), e);
            }
        }
    }
}
