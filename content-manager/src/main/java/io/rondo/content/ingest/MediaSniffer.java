package io.rondo.content.ingest;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaIndex;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Tells what a source is before ingest copies it: media Rondo streams, remuxed so that each round
 * is one fragment ({@link StoredMedia}); a file of a declared bit rate, cut into a round's worth
 * of bytes a fragment; or discrete data. A file whose name promises media its bytes do not hold
 * is refused, and the person ingesting is told why a file is stored the way it is.
 */
final class MediaSniffer {

    private final long roundNs;
    private final Supplier<Path> scratch;

    /**
     * @param roundNs the round length fragments are cut to
     * @param scratch the folder a remux may write its scratch files to
     */
    MediaSniffer(long roundNs, Supplier<Path> scratch) {
        this.roundNs = roundNs;
        this.scratch = scratch;
    }

    /**
     * The stored copy of {@code request}'s source, to stream; null to store the source as it is,
     * as discrete data. {@code notes} is told what the person ingesting should know.
     *
     * @throws IngestException if the source is not what its request or its name says it is
     */
    StoredMedia storedMedia(IngestRequest request, String name, long size, Consumer<String> notes)
        throws IngestException, IOException {
        if (request.kind() == Kind.DISCRETE) {
            return null;
        }
        Path source = request.source();
        Preparation prepared;
        try {
            prepared = MediaIndexers.prepare(source, roundNs, scratch.get());
        } catch (MediaFormatException e) {
            throw new IngestException(source + " is not media Rondo can serve: " + e.getMessage(), e);
        }
        if (prepared instanceof Preparation.Continuous continuous) {
            StoredMedia media = continuous.media();
            if (media.index().fragments().isEmpty()) {
                media.close();
                throw new IngestException(source + " holds no media after its header: there is nothing to stream");
            }
            if (continuous.note() != null) {
                notes.accept(name + " is streamed: " + continuous.note());
            }
            return media;
        }
        String note = ((Preparation.Discrete) prepared).note();
        String extension = ObjectNames.extension(name);
        if (note == null && (extension.equals("webm") || extension.equals("mkv"))) {
            throw new IngestException(source + " is named ." + extension + " but is not a WebM/Matroska file "
                + "(no EBML header at its start)");
        }
        if (note == null && MimeTypes.promisesMedia(name) && !looksLikeIsoMedia(source)) {
            throw new IngestException(source + " is named ." + extension + " but is not an MP4 file (no ftyp box at "
                + "its start)");
        }
        if (request.declaredBitRate() > 0) {
            return StoredMedia.copyOf(source, constantBitRate(name, size, request.declaredBitRate()));
        }
        if (request.kind() == Kind.CONTINUOUS) {
            throw new IngestException(source + (note != null ? ": " + note
                : " is not media Rondo can parse (MP4, WebM/Matroska, MPEG-TS, FLAC, Ogg, MP3), so it cannot find its"
                + " fragments; declare its bit rate (--bitrate) to stream it with a constant-bit-rate estimate, or"
                + " ingest it as discrete"));
        }
        if (note != null) {
            notes.accept(name + " is stored as discrete data (downloadable, not streamed): " + note);
        }
        return null;
    }

    /** Fragments of one round's worth of bytes at a declared bit rate: progressive media. */
    private MediaIndex constantBitRate(String name, long size, long bitRate) {
        long bytesPerRound = Math.max(1, (long) (bitRate / 8.0 * roundNs / 1e9));
        List<Fragment> fragments = new ArrayList<>();
        for (long offset = 0; offset < size; offset += bytesPerRound) {
            long length = Math.min(bytesPerRound, size - offset);
            fragments.add(Fragment.unplaced(fragments.size() * roundNs, (long) (length * 8e9 / bitRate), offset,
                length));
        }
        long durationNs = (long) (size * 8e9 / bitRate);
        return new MediaIndex("progressive", MimeTypes.byName(name), "", durationNs, new ByteRange(0, 0), fragments);
    }

    private static boolean looksLikeIsoMedia(Path source) throws IOException {
        byte[] head = new byte[8];
        try (InputStream in = Files.newInputStream(source)) {
            return in.readNBytes(head, 0, 8) == 8 && head[4] == 'f' && head[5] == 't' && head[6] == 'y'
                && head[7] == 'p';
        }
    }
}
