package io.rondo.server.cli.cluster;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.cli.admin.TokenFiles;
import io.rondo.server.cluster.Cluster;
import io.rondo.server.cluster.NodeCopies;
import io.rondo.server.cluster.Throttle;
import io.rondo.server.config.ByteSizes;
import io.rondo.server.config.RondoConfig;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * What every {@code rondo cluster} command that calls the nodes needs: the configuration that lists
 * them ({@link ClusterConfigOption}), and the admin token they share ({@code --token-file}, else
 * {@code $RONDO_ADMIN_TOKEN}, else the file {@code admin.tokenFile} names).
 */
final class ClusterOptions {

    @Mixin
    private ClusterConfigOption config;

    @Option(names = "--token-file", paramLabel = "FILE",
        description = "The admin token the nodes share (default: $RONDO_ADMIN_TOKEN, else admin.tokenFile).")
    private Path tokenFile;

    /** The configuration these options name. */
    RondoConfig settings() {
        return config.settings();
    }

    /** The cluster the configuration lists, seen from outside it. */
    Cluster cluster(RondoConfig settings) {
        return Cluster.of(settings.clusterSettings(), null);
    }

    /**
     * The calls to the nodes, their copies' reads held to {@code rate} ({@code cluster.copyRate} unless given).
     *
     * @param rate {@code --rate} as written, or null
     */
    NodeCopies copies(RondoConfig settings, String rate) {
        long bytesPerSecond = rate == null ? settings.clusterSettings().copyBytesPerSecond()
            : ByteSizes.parse(rate, "--rate");
        return new NodeCopies(token(settings), new Throttle(bytesPerSecond, SystemClocks.nanoClock()));
    }

    private String token(RondoConfig settings) {
        if (tokenFile != null) {
            return TokenFiles.read(tokenFile, "admin", "--token-file FILE or $RONDO_ADMIN_TOKEN");
        }
        String env = System.getenv(AdminTokens.ADMIN_ENV);
        if (env != null) {
            return TokenFiles.checked(env, "$" + AdminTokens.ADMIN_ENV);
        }
        Path file = settings.adminSettings().tokenFile();
        if (file == null) {
            throw new IllegalArgumentException("the nodes' admin token: give --token-file FILE or $"
                + AdminTokens.ADMIN_ENV + ", or set admin.tokenFile (one file every node reads)");
        }
        return TokenFiles.read(file, "admin", "--token-file FILE or $" + AdminTokens.ADMIN_ENV);
    }
}
