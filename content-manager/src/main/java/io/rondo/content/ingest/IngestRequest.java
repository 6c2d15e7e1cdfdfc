package io.rondo.content.ingest;

import io.rondo.content.model.Kind;

import java.nio.file.Path;

/**
 * One file to bring in.
 *
 * @param source          the file to copy into the data folder
 * @param name            its name in the directory tree, or null for {@code /} + the file's name
 * @param kind            discrete or continuous, or null to decide by content (indexable media
 *                        is continuous, anything else discrete)
 * @param declaredBitRate bits per second, to stream a file Rondo cannot index (a plain MP4) with a
 *                        constant-bit-rate estimate of its fragments; 0 if not declared
 */
public record IngestRequest(Path source, String name, Kind kind, long declaredBitRate) {

    public IngestRequest {
        if (declaredBitRate < 0) {
            throw new IllegalArgumentException("a declared bit rate must not be negative, was " + declaredBitRate);
        }
    }

    /** A file under its own name, its kind decided by its content. */
    public static IngestRequest of(Path source) {
        return new IngestRequest(source, null, null, 0);
    }
}
