package io.rondo.server.stream;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A client's address as the admin API and the admission log show it: {@code host:port}, an IPv6
 * host in brackets ({@code [::1]:52100}) so the port cannot be read as part of it.
 */
final class ClientAddress {

    private ClientAddress() {
    }

    /** {@code remote} as {@code host:port}; an address that is not IP as its own string. */
    static String of(SocketAddress remote) {
        if (remote instanceof InetSocketAddress address) {
            String host = address.getAddress() == null ? address.getHostString()
                : address.getAddress().getHostAddress();
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
        }
        return String.valueOf(remote);
    }
}
