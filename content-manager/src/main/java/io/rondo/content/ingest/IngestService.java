package io.rondo.content.ingest;

import io.rondo.content.catalog.Catalog;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Brings files into the data folder, crash-safely: every file of an object is written under
 * {@code rondo/tmp/}, forced to the device, renamed into {@code rondo/objects/}, and only then is
 * the catalog entry written. A crash before the entry leaves files no entry names, which
 * {@link #recover()} removes at the next start; so an object is there whole or not at all.
 *
 * <p>Continuous objects (MP4, WebM/Matroska, MPEG-TS, FLAC, Ogg, MP3) are remuxed as they are copied,
 * so that each round of presentation is one fragment whatever the encoder's keyframe interval
 * ({@link StoredMedia}); the stored copy is what HTTP serves and streams read, and the ETag is its
 * hash. Fragments are striped round-robin over the disks as the placement policy says, each
 * disk's share appended to one file so that a stream's read for a round is one contiguous IO. The
 * HTTP upload route calls this class as {@code rondo ingest} does.
 *
 * <p>This class runs an ingest from end to end; its steps are classes of their own: the checks
 * of the source and the name ({@link IngestChecks}), telling what the source is
 * ({@link MediaSniffer}), the copies ({@link ObjectCopier}) with their room on the disks
 * ({@link DiskSpace}), crash-safe moves ({@link CrashSafeFiles}) and the ETag ({@link ETags}).
 */
public final class IngestService {

    private final ContentStore store;
    private final Clock clock;
    private final MediaSniffer sniffer;
    private final ObjectCopier copier;

    /**
     * @param store   the catalog and disks
     * @param policy  where new objects go
     * @param roundNs the round length fragments are cut to
     * @param clock   the wall clock for created and modified times
     */
    public IngestService(ContentStore store, PlacementPolicy policy, long roundNs, Clock clock) {
        this.store = store;
        this.clock = clock;
        this.sniffer = new MediaSniffer(roundNs,
            () -> DiskSpace.mostFree(store.disks()).root().resolve(ContentStore.TMP));
        this.copier = new ObjectCopier(store, policy);
    }

    /**
     * Ingests one file. {@code progress} is told the bytes copied so far.
     *
     * @throws IngestException if the input is refused (missing, empty, corrupt media, a name taken);
     *                         nothing is left behind
     * @throws IOException     if writing the data folder fails; nothing is left behind
     */
    public MediaObject ingest(IngestRequest request, LongConsumer progress) throws IngestException, IOException {
        return ingest(request, progress, note -> { });
    }

    /**
     * Ingests one file. {@code progress} is told how far the copy is, in bytes of the source;
     * {@code notes} is told what the person ingesting should know, e.g. that a video's codec no
     * browser plays made it a discrete object, and how to make it streamable.
     *
     * @throws IngestException if the input is refused (missing, empty, corrupt media, a name taken);
     *                         nothing is left behind
     * @throws IOException     if writing the data folder fails; nothing is left behind
     */
    public MediaObject ingest(IngestRequest request, LongConsumer progress, Consumer<String> notes)
        throws IngestException, IOException {
        Path source = request.source();
        long size = IngestChecks.readableSize(source);
        Catalog catalog = store.catalog();
        String name = IngestChecks.freeName(catalog, request);
        try (StoredMedia media = sniffer.storedMedia(request, name, size, notes)) {
            long id = catalog.nextId();
            long nowMs = clock.millis();
            List<Path> written = new ArrayList<>();
            try {
                ObjectCopier.Copied result = media == null ? copier.copyWhole(id, source, name, size, written, progress)
                    : copier.copyStriped(id, source, name, media, written, progress, size);
                String mime = media == null ? MimeTypes.byName(name) : media.index().mimeType();
                long storedSize = media == null ? size : media.size();
                MediaObject object = new MediaObject(id, name, media == null ? Kind.DISCRETE : Kind.CONTINUOUS, mime,
                    storedSize, result.etag(), nowMs, nowMs, result.placement(), result.media());
                catalog.put(object);
                return object;
            } catch (IOException | RuntimeException e) {
                for (Path path : written) {
                    Files.deleteIfExists(path);
                }
                if (e instanceof MediaFormatException bad) {
                    throw new IngestException(source + " is not media Rondo can serve: " + bad.getMessage(), bad);
                }
                if (e instanceof IOException io && DiskSpace.noSpaceLeft(io)) {
                    throw new IOException(DiskSpace.noSpaceLeftFor(name, store.disks()), e);
                }
                throw e;
            }
        }
    }

    /**
     * Cleans up after a crash: removes ingests in progress and files no catalog entry names.
     * Returns how many files it removed.
     */
    public int recover() throws IOException {
        int removed = 0;
        for (StorageDisk disk : store.disks()) {
            removed += CrashSafeFiles.deleteAll(disk.root().resolve(ContentStore.TMP), path -> true);
            removed += CrashSafeFiles.deleteAll(disk.root().resolve(ContentStore.OBJECTS),
                path -> store.catalog().byId(CrashSafeFiles.idOf(path)).isEmpty());
        }
        return removed;
    }

    /** The ETag ingest gives an object of these bytes: a prefix of their SHA-256, quoted. */
    public static String etagOf(byte[] content) {
        return ETags.of(content);
    }
}
