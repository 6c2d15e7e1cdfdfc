package io.rondo.server.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What waits for a recording's next rounds to be cut (blocking playlist reloads): each completes
 * once the media holds as many fragments as it waits for, or once nothing more will come. Event
 * loop only.
 */
final class CutWaiters {

    private record Waiter(int fragments, CompletableFuture<Void> ready) {
    }

    private final List<Waiter> waiting = new ArrayList<>();

    /** {@code ready} completes once the media holds {@code fragments} fragments. */
    void add(int fragments, CompletableFuture<Void> ready) {
        waiting.add(new Waiter(fragments, ready));
    }

    /** Completes those the media's {@code known} fragments satisfy, or, if {@code over}, all. */
    void wake(int known, boolean over) {
        waiting.removeIf(waiter -> {
            if (over || known >= waiter.fragments()) {
                waiter.ready().complete(null);
                return true;
            }
            return false;
        });
    }
}
