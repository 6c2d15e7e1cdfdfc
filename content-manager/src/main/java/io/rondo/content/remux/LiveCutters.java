package io.rondo.content.remux;

import io.rondo.content.media.LiveCutter;
import io.rondo.content.media.isobmff.LiveMp4Cutter;
import io.rondo.content.media.matroska.LiveWebmCutter;

import java.util.List;
import java.util.Locale;

/** Which {@link LiveCutter} cuts a publisher's container, by the name the publisher declares. */
public final class LiveCutters {

    /** The containers a publisher may send, by the names it declares them with. */
    public static final List<String> CONTAINERS = List.of("mp4", "webm");

    /** A timestamp jump larger than this starts the timeline again: no encoder pauses a live source longer. */
    public static final long MAX_JUMP_NS = 10_000_000_000L;

    private LiveCutters() {
    }

    /**
     * A cutter of {@code container}'s live bytes into fragments of one round of {@code roundNs}.
     *
     * @throws IllegalArgumentException if Rondo does not take that container live
     */
    public static LiveCutter of(String container, long roundNs) {
        return switch (container.toLowerCase(Locale.ROOT)) {
            case "mp4", "fmp4" -> new LiveMp4Cutter(roundNs, MAX_JUMP_NS);
            case "webm", "matroska", "mkv" -> new LiveWebmCutter(roundNs, MAX_JUMP_NS);
            default -> throw new IllegalArgumentException("Rondo records live " + CONTAINERS + ", not " + container);
        };
    }
}
