package io.rondo.systemtest;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.launch.RondoJvm;
import io.rondo.server.launch.ServeProcess;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code rondo serve} as the system tests start it, through the launcher {@code rondo bench} uses
 * too: this build's classes in a JVM of its own, emulated paper disks, a minute to say where it
 * serves.
 */
final class RondoServe {

    private static final Duration START_LIMIT = Duration.ofSeconds(60);

    private RondoServe() {
    }

    /** Serves the library in {@code data}, printing to {@code output}; returns once it says where it serves. */
    static ServeProcess start(Path data, Path output) throws IOException {
        return start(data, output, List.of());
    }

    /**
     * Serves the library in {@code data} in a JVM started with {@code jvmFlags} (e.g. its heap
     * limit), printing to {@code output}; returns once it says where it serves.
     */
    static ServeProcess start(Path data, Path output, List<String> jvmFlags) throws IOException {
        return ServeProcess.start(RondoJvm.thisClassPath(jvmFlags), data, true, output, START_LIMIT,
            SystemClocks.nanoClock());
    }
}
