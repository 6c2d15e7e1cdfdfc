package io.rondo.benchmarks.rig;

import io.rondo.client.StreamClient;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stream client that takes its DATA as fast as it comes, on a daemon thread of its own, for the
 * presets that run many admitted streams at once and count the ones that fail.
 */
public final class StreamDrain {

    private StreamDrain() {
    }

    /**
     * Takes {@code client}'s DATA on a thread named {@code name} until it is closed; a stream that
     * fails or ends before {@code stopping} is set (the presets' clips outlast their runs) counts in
     * {@code failed}.
     */
    public static void start(StreamClient client, String name, AtomicInteger failed, AtomicBoolean stopping) {
        Thread reader = new Thread(() -> {
            try {
                while (client.nextData() != null) {
                    Thread.onSpinWait();
                }
                if (!stopping.get()) {
                    failed.incrementAndGet();
                }
            } catch (IOException | RuntimeException e) {
                if (!stopping.get()) {
                    failed.incrementAndGet();
                }
            }
        }, name);
        reader.setDaemon(true);
        reader.start();
    }
}
