package io.rondo.server.config;

import io.rondo.server.runtime.ConnectionLimit;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * How many connections each port holds at once, in all and from one client address:
 * {@code http.maxConnections}, {@code http.maxConnectionsPerAddress} and the same keys of
 * {@code streams:} and {@code admin:}. Every connection is a file descriptor, and so are the
 * disks' files and the catalog: the defaults ({@code auto}) are shares of this process's
 * descriptor limit ({@code ulimit -n}, as the JVM reports it), leaving a fifth of it for the rest,
 * so a flood of connections is refused at the ports before the process runs out.
 *
 * @param http              {@code http.maxConnections}
 * @param httpPerAddress    {@code http.maxConnectionsPerAddress}
 * @param streams           {@code streams.maxConnections}
 * @param streamsPerAddress {@code streams.maxConnectionsPerAddress}
 * @param admin             {@code admin.maxConnections}
 * @param adminPerAddress   {@code admin.maxConnectionsPerAddress}
 */
public record ConnectionSettings(int http, int httpPerAddress, int streams, int streamsPerAddress, int admin,
                                 int adminPerAddress) {

    /** Where the JVM cannot tell the descriptor limit: a common {@code ulimit -n}. */
    static final long ASSUMED_DESCRIPTORS = 4096;
    /** {@code http.maxConnections: auto}: half the descriptors. */
    static final double HTTP_SHARE = 0.5;
    /** {@code streams.maxConnections: auto}: three tenths of the descriptors. */
    static final double STREAMS_SHARE = 0.3;
    /** {@code admin.maxConnections: auto}: a twentieth of the descriptors, from 16 to 256. */
    static final double ADMIN_SHARE = 0.05;
    /** {@code http.maxConnectionsPerAddress: auto}: a browser opens six; a busy proxy many more. */
    static final int HTTP_PER_ADDRESS = 1024;
    /** {@code admin.maxConnectionsPerAddress: auto}: a few dashboards and scripts. */
    static final int ADMIN_PER_ADDRESS = 64;

    /** Checks every limit once. */
    public ConnectionSettings {
        Settings.positive(http, "http.maxConnections");
        Settings.positive(httpPerAddress, "http.maxConnectionsPerAddress");
        Settings.positive(streams, "streams.maxConnections");
        Settings.positive(streamsPerAddress, "streams.maxConnectionsPerAddress");
        Settings.positive(admin, "admin.maxConnections");
        Settings.positive(adminPerAddress, "admin.maxConnectionsPerAddress");
    }

    /** Every key at its default, {@code auto}, for this process's descriptor limit. */
    public static ConnectionSettings defaults() {
        return auto(maxDescriptors(), null, null, null, null, null, null);
    }

    /**
     * The {@code maxConnections} and {@code maxConnectionsPerAddress} keys of the three sections as
     * written, for this process's descriptor limit.
     */
    static ConnectionSettings read(HttpSettings.Section http, StreamSettings.Section streams,
                                   AdminSettings.Section admin) {
        return auto(maxDescriptors(),
            connections(http.maxConnections(), "http.maxConnections"),
            connections(http.maxConnectionsPerAddress(), "http.maxConnectionsPerAddress"),
            connections(streams.maxConnections(), "streams.maxConnections"),
            connections(streams.maxConnectionsPerAddress(), "streams.maxConnectionsPerAddress"),
            connections(admin.maxConnections(), "admin.maxConnections"),
            connections(admin.maxConnectionsPerAddress(), "admin.maxConnectionsPerAddress"));
    }

    /** A connection limit as written: a whole number, or null for {@code auto} (or not written). */
    private static Integer connections(String text, String key) {
        if (text == null || text.equals(RondoConfig.AUTO)) {
            return null;
        }
        try {
            int value = Integer.parseInt(text.strip());
            Settings.positive(value, key);
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a positive whole number or auto, was '" + text + "'", e);
        }
    }

    /**
     * The limits for {@code descriptors} file descriptors, each given value as it is and each null
     * one ({@code auto}) as its share: HTTP half of them, streams three tenths (one address may take
     * them all: a load test or a relay), admin a twentieth from 16 to 256; HTTP 1024 an address and
     * admin 64, never more than the port's own limit.
     */
    static ConnectionSettings auto(long descriptors, Integer http, Integer httpPerAddress, Integer streams,
                                   Integer streamsPerAddress, Integer admin, Integer adminPerAddress) {
        int httpMax = http != null ? http : share(descriptors, HTTP_SHARE, 64, Integer.MAX_VALUE);
        int streamsMax = streams != null ? streams : share(descriptors, STREAMS_SHARE, 64, Integer.MAX_VALUE);
        int adminMax = admin != null ? admin : share(descriptors, ADMIN_SHARE, 16, 256);
        return new ConnectionSettings(httpMax,
            httpPerAddress != null ? httpPerAddress : Math.min(HTTP_PER_ADDRESS, httpMax),
            streamsMax, streamsPerAddress != null ? streamsPerAddress : streamsMax,
            adminMax, adminPerAddress != null ? adminPerAddress : Math.min(ADMIN_PER_ADDRESS, adminMax));
    }

    private static int share(long descriptors, double share, int least, int most) {
        return (int) Math.max(least, Math.min(most, (long) (descriptors * share)));
    }

    /** The most file descriptors this process may hold ({@code ulimit -n}), or an assumed 4096 where unknown. */
    public static long maxDescriptors() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix && unix.getMaxFileDescriptorCount() > 0) {
            return unix.getMaxFileDescriptorCount();
        }
        return ASSUMED_DESCRIPTORS;
    }

    /** The HTTP port's limit, counting its connections from now on. */
    public ConnectionLimit httpLimit() {
        return new ConnectionLimit("HTTP", "http.", http, httpPerAddress);
    }

    /** The stream port's limit, counting its connections from now on. */
    public ConnectionLimit streamsLimit() {
        return new ConnectionLimit("stream", "streams.", streams, streamsPerAddress);
    }

    /** The admin port's limit, counting its connections from now on. */
    public ConnectionLimit adminLimit() {
        return new ConnectionLimit("admin", "admin.", admin, adminPerAddress);
    }

    /** One line for {@code serve} and {@code doctor}: the limits against the descriptors. */
    public String describe(long descriptors) {
        return "connections: HTTP " + http + " (" + httpPerAddress + " an address), streams " + streams + " ("
            + streamsPerAddress + " an address), admin " + admin + " (" + adminPerAddress + " an address), of "
            + descriptors + " file descriptors (ulimit -n)";
    }

    /** What is wrong with the limits for {@code descriptors} file descriptors: the ports together taking them all. */
    public List<String> warnings(long descriptors) {
        List<String> warnings = new ArrayList<>();
        long ports = (long) http + streams + admin;
        if (ports >= descriptors) {
            warnings.add("the ports may hold " + ports + " connections together (http, streams and admin "
                + "maxConnections) but the process has " + descriptors + " file descriptors (ulimit -n): a flood of "
                + "connections would leave none for the disks' files; lower them or raise ulimit -n");
        }
        return warnings;
    }
}
