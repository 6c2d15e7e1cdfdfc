package io.rondo.server.stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Stopping a stream's watch of a live recording ({@link io.rondo.server.runtime.Prepared#watch}). */
final class Watches {

    private static final Logger LOG = LoggerFactory.getLogger(Watches.class);

    private Watches() {
    }

    /** Stops {@code watch} if there is one; a failure to stop is only logged, as the stream is ending anyway. */
    static void stop(AutoCloseable watch) {
        if (watch == null) {
            return;
        }
        try {
            watch.close();
        } catch (Exception e) {
            LOG.debug("stopping a live watch: {}", e.getMessage());
        }
    }
}
