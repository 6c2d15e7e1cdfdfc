package io.rondo.server.launch;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Stopping a child process the way its own tools expect, so that it closes what it holds (its ports, its files):
 * shared by every server Rondo or its benchmarks run beside themselves ({@code rondo serve}, HAProxy, nginx).
 */
public final class ChildProcesses {

    private ChildProcesses() {
    }

    /**
     * Stops {@code process} and its descendants as Ctrl-C does (SIGTERM), and kills them all (SIGKILL) if it has
     * not exited within {@code limit}, or if the calling thread is interrupted while it waits (the interrupt is
     * kept). Returns once it has exited, or on that interrupt.
     */
    public static void stop(Process process, Duration limit) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(process);
                process.waitFor();
            }
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
        }
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
