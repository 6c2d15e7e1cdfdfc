package io.rondo.server.cli;

import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;

/** The options every library command shares ({@code --data}, {@code --config}): a Picocli mixin. */
final class LibraryOptions {

    @Option(names = "--data", paramLabel = "DIR",
        description = "The data folder (one disk); default: the storage roots of the configuration.")
    private Path data;

    @Option(names = "--config", paramLabel = "FILE",
        description = "The configuration file (default: config/rondo.yaml).")
    private Path config;

    /** Opens the library these options name. */
    Library open() throws IOException {
        return Library.open(config, data);
    }

    /** The configuration these options name: {@code --config FILE}, else config/rondo.yaml or its defaults. */
    RondoConfig settings() {
        return config == null ? RondoConfig.loadOrDefaults(RondoConfig.defaultFile()) : RondoConfig.load(config);
    }

    /** {@code --data DIR}, or null for the configured storage roots. */
    Path data() {
        return data;
    }
}
