package io.rondo.content.media;

/**
 * What ingest makes of a file: a continuous object to remux and store, or a discrete one, with a
 * note for the person ingesting when the file is media that cannot be streamed as it is.
 */
public sealed interface Preparation {

    /** A continuous object: the stored media to write. */
    record Continuous(StoredMedia media) implements Preparation {
    }

    /**
     * A discrete object. {@code note} is null for a file that is no media (a page, an image), and
     * for media that cannot be streamed says why and how to make it streamable, e.g. the codec no
     * browser plays and the ffmpeg command that re-encodes it.
     */
    record Discrete(String note) implements Preparation {
    }
}
