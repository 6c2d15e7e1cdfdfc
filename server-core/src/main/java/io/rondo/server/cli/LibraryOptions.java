package io.rondo.server.cli;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.admin.AdminUrlFile;
import io.rondo.server.cli.admin.LibraryServer;
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
        return Library.open(config, data, SystemClocks.utc());
    }

    /** The configuration these options name: {@code --config FILE}, else config/rondo.yaml or its defaults. */
    RondoConfig settings() {
        return config == null ? RondoConfig.loadOrDefaults(RondoConfig.defaultFile()) : RondoConfig.load(config);
    }

    /**
     * Opens the library of {@code settings}; when a running server holds its catalog, and says
     * where its admin API is ({@code DATA/rondo/admin.url}), answers that server instead, through
     * which the command then works.
     *
     * @throws IllegalStateException if the catalog is held and no server says it holds it
     */
    Opened openOrServer(RondoConfig settings) throws IOException {
        try {
            return new Opened(Library.open(settings, data, SystemClocks.utc()), null);
        } catch (IllegalStateException held) {
            Path root = (data != null ? data : settings.storageRoots().get(0)).toAbsolutePath().normalize();
            LibraryServer server = LibraryServer.of(root, settings).orElseThrow(() -> held);
            if (!server.answers()) {
                throw new IllegalStateException(held.getMessage() + "; the server " + root.resolve(AdminUrlFile.NAME)
                    + " names, " + server.url() + ", does not answer", held);
            }
            return new Opened(null, server);
        }
    }

    /**
     * The library, opened here (its catalog to close), or the running server that holds it.
     *
     * @param library the library, or null
     * @param server  the server, or null
     */
    record Opened(Library library, LibraryServer server) implements AutoCloseable {

        @Override
        public void close() {
            if (library != null) {
                library.close();
            }
        }
    }

    /** {@code --data DIR}, or null for the configured storage roots. */
    Path data() {
        return data;
    }
}
