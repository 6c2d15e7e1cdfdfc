import io.rondo.client.StreamClient;
import io.rondo.client.protocol.ClientProfile;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Background streams for the discrete-serving comparison: COUNT clients, each on its own thread,
 * play NAME from the start over Rondo's stream protocol and take every fragment until SECONDS have
 * passed. Prints how many were accepted, rejected or failed, and the bytes received.
 *
 *   java -cp server-core/target/rondo.jar benchmarks/scripts/StreamLoad.java HOST PORT NAME COUNT SECONDS
 */
public final class StreamLoad {

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String name = args[2];
        int count = Integer.parseInt(args[3]);
        long endNs = System.nanoTime() + Long.parseLong(args[4]) * 1_000_000_000L;
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> {
                try (StreamClient client = StreamClient.connect(host, port)) {
                    try {
                        client.open(name, 0, new ClientProfile(4L << 20, 8L << 20));
                    } catch (io.rondo.client.StreamRejectedException e) {
                        refused.incrementAndGet();
                        return;
                    }
                    accepted.incrementAndGet();
                    try {
                        while (System.nanoTime() - endNs < 0 && client.nextData() != null) {
                            continue;
                        }
                    } finally {
                        bytes.addAndGet(client.bytesReceived());
                    }
                } catch (Exception e) {
                    failed.incrementAndGet();
                    System.err.println("stream: " + e);
                }
            }, "stream-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
            Thread.sleep(20);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        System.out.printf("streams: %d accepted, %d rejected, %d failed, %.1f MB received (%.2f Mbit/s each)%n",
            accepted.get(), refused.get(), failed.get(), bytes.get() / 1e6,
            accepted.get() == 0 ? 0.0 : bytes.get() * 8 / 1e6 / accepted.get() / Double.parseDouble(args[4]));
    }
}
