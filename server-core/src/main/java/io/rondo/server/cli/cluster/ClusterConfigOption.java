package io.rondo.server.cli.cluster;

import io.rondo.server.config.RondoConfig;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code --config}: the configuration whose {@code cluster:} section lists the nodes, else
 * {@code config/rondo.yaml} where it exists. Every {@code rondo cluster} command reads the nodes this way;
 * those that call them take {@link ClusterOptions}, which adds their admin token.
 */
final class ClusterConfigOption {

    @Option(names = "--config", paramLabel = "FILE",
        description = "The configuration whose cluster: section lists the nodes (default: config/rondo.yaml).")
    private Path config;

    /** The configuration this option names. */
    RondoConfig settings() {
        return config == null ? RondoConfig.loadOrDefaults(RondoConfig.defaultFile()) : RondoConfig.load(config);
    }
}
