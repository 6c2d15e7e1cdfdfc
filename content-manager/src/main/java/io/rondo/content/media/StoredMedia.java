package io.rondo.content.media;

import io.rondo.content.model.MediaIndex;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A continuous object as Rondo stores it, planned from a source file: the media remuxed so that
 * each round T of presentation is one media segment (an fMP4 {@code moof} + {@code mdat}, a WebM
 * {@code Cluster}, a run of MP3 frames), with every sample's bytes copied untouched from the
 * source (papers/001 Section 1.1: a fragment is the data for one round's display).
 *
 * <p>Planning reads the source's headers and sample tables only; the payload is read once, by
 * {@link #writeInit} and {@link #writeFragment}, so ingest reads each byte of a film once and holds
 * no more than one fragment in memory.
 */
public interface StoredMedia extends Closeable {

    /**
     * The index of the stored bytes: the init segment at {@code [0, init.length)}, then the
     * fragments, contiguous, each one round of presentation (the last may be shorter).
     */
    MediaIndex index();

    /** The size of the stored bytes: the end of the last fragment. */
    default long size() {
        var fragments = index().fragments();
        return fragments.isEmpty() ? index().init().end() : fragments.get(fragments.size() - 1).range().end();
    }

    /** Writes the init segment, exactly {@code index().init().length()} bytes. */
    void writeInit(WritableByteChannel out) throws IOException;

    /**
     * Writes fragment {@code i}, exactly its length. Ingest calls this for every fragment in order,
     * after {@link #writeInit}; an implementation may rely on that order.
     *
     * @throws IOException if the source cannot be read, or no longer matches the plan
     */
    void writeFragment(int i, WritableByteChannel out) throws IOException;

    /** Writes the whole stored copy: the init segment, then every fragment in order. */
    default void writeAll(WritableByteChannel out) throws IOException {
        writeInit(out);
        for (int i = 0; i < index().fragments().size(); i++) {
            writeFragment(i, out);
        }
    }

    /** Writes every remaining byte of {@code bytes} to {@code out}, however many writes that takes. */
    static void writeFully(WritableByteChannel out, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }

    /**
     * The bytes of {@code source} as they are, cut where {@code index} says: for media Rondo cannot
     * parse, streamed at a declared bit rate. The index's ranges must lie within the file.
     */
    static StoredMedia copyOf(Path source, MediaIndex index) throws IOException {
        return new SourceCopy(source, index);
    }
}
