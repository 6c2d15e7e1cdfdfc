package io.rondo.server.cluster.agent;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.rondo.server.net.Transport;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The agent port HAProxy's {@code agent-check} connects to: each connection is written the node's
 * line ({@link AgentReport}) and a line feed, then closed; what the checker sends
 * ({@code agent-send}) is read and dropped. One event-loop thread of its own, so the balancer
 * hears the node even while the ports that serve the library are at their busiest; a line is
 * reckoned from admission's snapshot, a few reads of counters, never a disk.
 */
public final class AgentServer implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel channel;

    private AgentServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Listens at {@code address} (port 0: a free one) and answers each connection with a line of
     * {@code lines}.
     *
     * @throws IllegalStateException when the port cannot be had
     * @throws InterruptedException when interrupted while binding
     */
    public static AgentServer start(InetSocketAddress address, Supplier<AgentLine> lines) throws InterruptedException {
        EventLoopGroup group = Transport.group(1, "rondo-agent");
        try {
            Channel channel = Transport.bind(new ServerBootstrap().group(group)
                .channel(Transport.serverChannel())
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel connection) {
                        Transport.answerAndClose(connection,
                            Unpooled.copiedBuffer(lines.get().format() + "\n", StandardCharsets.US_ASCII));
                    }
                }), address, " for the agent check", "--agent-port");
            return new AgentServer(group, channel);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** Where the agent listens (the port chosen when 0 was asked). */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
