package io.rondo.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The most connections one port holds at once, and the most from one client address: a port takes
 * a connection only while both have room, so a flood of idle connections meets a refusal, not the
 * end of the process's file descriptors (when the kernel has no descriptor left to give, no port
 * can even accept). Each port's initializer asks {@link #admit} first and, if refused, answers
 * with its protocol's refusal and closes; a connection admitted gives its place back when it
 * closes. Any event loop may ask: the counts are atomic.
 */
public final class ConnectionLimit {

    private final String port;
    private final String setting;
    private final int maxConnections;
    private final int maxPerAddress;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, AtomicInteger> byAddress = new ConcurrentHashMap<>();

    /**
     * @param port           the port's name in a refusal ("HTTP", "stream", "admin")
     * @param setting        the {@code rondo.yaml} keys' prefix, as a refusal names them
     * @param maxConnections the most connections the port holds
     * @param maxPerAddress  the most from one client address
     */
    public ConnectionLimit(String port, String setting, int maxConnections, int maxPerAddress) {
        if (maxConnections < 1 || maxPerAddress < 1) {
            throw new IllegalArgumentException(setting + ": connection limits must be positive, were "
                + maxConnections + " and " + maxPerAddress);
        }
        this.port = port;
        this.setting = setting;
        this.maxConnections = maxConnections;
        this.maxPerAddress = maxPerAddress;
    }

    /** No limit a test would meet: as many connections as an int counts. */
    public static ConnectionLimit unlimited(String port) {
        return new ConnectionLimit(port, port, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    /**
     * Takes a place for a newly accepted {@code channel}, given back when it closes; returns null
     * when the port has room for it, else why it is refused (for a person: which limit, and its key).
     */
    public String admit(Channel channel) {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            return "the " + port + " port holds its most connections, " + maxConnections + " (" + setting
                + "maxConnections); try again later";
        }
        InetAddress address = channel.remoteAddress() instanceof InetSocketAddress remote ? remote.getAddress() : null;
        if (address != null) {
            AtomicInteger mine = byAddress.compute(address, (key, count) -> {
                AtomicInteger counted = count == null ? new AtomicInteger() : count;
                counted.incrementAndGet();
                return counted;
            });
            if (mine.get() > maxPerAddress) {
                release(address);
                open.decrementAndGet();
                return "the " + port + " port holds its most connections from " + address.getHostAddress() + ", "
                    + maxPerAddress + " (" + setting + "maxConnectionsPerAddress); close some or try again later";
            }
        }
        channel.closeFuture().addListener(closed -> {
            if (address != null) {
                release(address);
            }
            open.decrementAndGet();
        });
        return null;
    }

    /**
     * Ends a refused connection: {@code refusal}, the port's own words for it, is written once the
     * connection is active, and the connection closed; nothing it sends is read. Call from the
     * initializer in place of the port's pipeline.
     */
    public static void refuse(Channel channel, ByteBuf refusal) {
        Transport.answerAndClose(channel, refusal);
        channel.config().setAutoRead(false);
    }

    private void release(InetAddress address) {
        byAddress.computeIfPresent(address, (key, count) -> count.decrementAndGet() == 0 ? null : count);
    }

    /** Connections the port holds now. */
    public int open() {
        return open.get();
    }

    /** The most connections the port holds. */
    public int maxConnections() {
        return maxConnections;
    }

    /** The most connections from one client address. */
    public int maxPerAddress() {
        return maxPerAddress;
    }
}
