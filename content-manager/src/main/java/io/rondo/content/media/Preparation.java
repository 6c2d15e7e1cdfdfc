package io.rondo.content.media;

/**
 * What ingest makes of a file: a continuous object to remux and store, or a discrete one, with a
 * note for the person ingesting when the file is media that cannot be streamed as it is.
 */
public sealed interface Preparation {

    /**
     * A continuous object: the stored media to write. {@code note} is null, or tells the person
     * ingesting what they should know though it streams: a codec not every browser plays, tracks
     * or tags the stored copy leaves out.
     */
    record Continuous(StoredMedia media, String note) implements Preparation {

        /** A continuous object with nothing to note. */
        public Continuous(StoredMedia media) {
            this(media, null);
        }
    }

    /**
     * A discrete object. {@code note} is null for a file that is no media (a page, an image), and
     * for media that cannot be streamed says why and how to make it streamable, e.g. the codec no
     * browser plays and the ffmpeg command that re-encodes it.
     */
    record Discrete(String note) implements Preparation {
    }
}
