package io.rondo.server.cli.console;

/**
 * What a command does on Ctrl-C while it runs, and only while it runs: a JVM shutdown hook that
 * closing removes. A command that streams ({@code rondo play}, {@code rondo record}) ends its stream
 * cleanly in the hook rather than leave the server to notice a vanished client.
 */
public final class ShutdownHook implements AutoCloseable {

    private final Thread hook;

    private ShutdownHook(Thread hook) {
        this.hook = hook;
    }

    /**
     * Runs {@code onInterrupt} on its own thread if the JVM is stopped before {@link #close()}.
     *
     * @param name        the hook thread's name
     * @param onInterrupt what to do; the JVM exits when it returns
     */
    public static ShutdownHook install(String name, Runnable onInterrupt) {
        Thread hook = new Thread(onInterrupt, name);
        Runtime.getRuntime().addShutdownHook(hook);
        return new ShutdownHook(hook);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: the hook is running now, and ends with the JVM.
        }
    }
}
