package io.rondo.content.ingest;

import io.rondo.content.catalog.Catalog;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.Placement;
import io.rondo.content.model.StoredFile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 */
public final class IngestService {

    private static final int COPY_BUFFER = 1 << 20;

    private final ContentStore store;
    private final PlacementPolicy policy;
    private final long roundNs;
    private final Clock clock;

    /**
     * @param store   the catalog and disks
     * @param policy  where new objects go
     * @param roundNs the round length fragments are cut to
     * @param clock   the wall clock for created and modified times
     */
    public IngestService(ContentStore store, PlacementPolicy policy, long roundNs, Clock clock) {
        this.store = store;
        this.policy = policy;
        this.roundNs = roundNs;
        this.clock = clock;
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
        if (!Files.exists(source)) {
            throw new IngestException(source + " does not exist");
        }
        if (!Files.isRegularFile(source)) {
            throw new IngestException(source + " is not a regular file");
        }
        if (!Files.isReadable(source)) {
            throw new IngestException(source + " cannot be read (permission denied)");
        }
        long size = Files.size(source);
        if (size == 0) {
            throw new IngestException(source + " is empty: there is nothing to serve");
        }
        String name;
        try {
            name = ObjectNames.normalize(request.name() == null ? source.getFileName().toString() : request.name());
        } catch (IllegalArgumentException e) {
            throw new IngestException(e.getMessage(), e);
        }
        Catalog catalog = store.catalog();
        Optional<MediaObject> existing = catalog.byName(name);
        if (existing.isPresent()) {
            throw new IngestException("an object named " + name + " already exists (id " + existing.get().id()
                + "); remove it first, or ingest under another name with --as");
        }
        String clash = ObjectNames.clash(catalog, name);
        if (clash != null) {
            throw new IngestException(clash + "; ingest under another name with --as");
        }
        try (StoredMedia media = storedMedia(request, source, name, size, notes)) {
            long id = catalog.nextId();
            long nowMs = clock.millis();
            List<Path> written = new ArrayList<>();
            try {
                Written result = media == null ? copyWhole(id, source, name, size, written, progress)
                    : copyStriped(id, source, name, media, written, progress, size);
                String mime = media == null ? MimeTypes.byName(name) : media.index().mimeType();
                long storedSize = media == null ? size : media.size();
                MediaObject object = new MediaObject(id, name, media == null ? Kind.DISCRETE : Kind.CONTINUOUS, mime,
                    storedSize, result.etag, nowMs, nowMs, result.placement, result.media);
                catalog.put(object);
                return object;
            } catch (IOException | RuntimeException e) {
                for (Path path : written) {
                    Files.deleteIfExists(path);
                }
                if (e instanceof MediaFormatException bad) {
                    throw new IngestException(source + " is not media Rondo can serve: " + bad.getMessage(), bad);
                }
                if (e instanceof IOException io && noSpaceLeft(io)) {
                    throw new IOException("no space left to write " + name + ": " + String.join(", ",
                        store.disks().stream().map(disk -> room(disk) + " free").toList()), e);
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
            removed += deleteAll(disk.root().resolve(ContentStore.TMP), path -> true);
            removed += deleteAll(disk.root().resolve(ContentStore.OBJECTS),
                path -> store.catalog().byId(idOf(path)).isEmpty());
        }
        return removed;
    }

    private StoredMedia storedMedia(IngestRequest request, Path source, String name, long size,
                                    Consumer<String> notes) throws IngestException, IOException {
        if (request.kind() == Kind.DISCRETE) {
            return null;
        }
        Preparation prepared;
        try {
            prepared = MediaIndexers.prepare(source, roundNs, mostFree().root().resolve(ContentStore.TMP));
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

    private record Written(Placement placement, MediaIndex media, String etag) {
    }

    private Written copyWhole(long id, Path source, String name, long size, List<Path> written,
                              LongConsumer progress) throws IngestException, IOException {
        StorageDisk disk = mostFree();
        checkRoom(Map.of(disk, size), name);
        String extension = ObjectNames.extension(name);
        String relative = ContentStore.OBJECTS + "/" + id + (extension.isEmpty() ? "" : "." + extension);
        Path temp = disk.root().resolve(ContentStore.TMP).resolve(id + ".part");
        written.add(temp);
        MessageDigest digest = sha256();
        ByteBuffer buffer = ByteBuffer.allocateDirect(COPY_BUFFER);
        long copied = 0;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
             DirectFileWriter out = new DirectFileWriter(temp)) {
            while (copied < size) {
                buffer.clear();
                int read = in.read(buffer, copied);
                if (read < 0) {
                    throw new IOException(source + " shrank while it was copied: " + copied + " of " + size
                        + " bytes read");
                }
                buffer.flip();
                digest.update(buffer.duplicate());
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                copied += read;
                progress.accept(copied);
            }
        }
        Path target = disk.root().resolve(relative);
        written.add(target);
        moveIntoPlace(temp, target);
        return new Written(new Placement(List.of(new StoredFile(disk.name(), relative, size))), null,
            etag(digest));
    }

    private Written copyStriped(long id, Path source, String name, StoredMedia stored, List<Path> written,
                                LongConsumer progress, long sourceSize) throws IngestException, IOException {
        MediaIndex media = stored.index();
        List<StorageDisk> order = stripeOrder(id);
        String extension = ObjectNames.extension(name).isEmpty() ? "bin" : ObjectNames.extension(name);
        String folder = ContentStore.OBJECTS + "/" + id;
        int stripes = Math.min(order.size(), media.fragments().size());
        List<String> relative = new ArrayList<>();
        List<StorageDisk> fileDisks = new ArrayList<>();
        relative.add(folder + "/init." + extension);
        fileDisks.add(order.get(0));
        for (int stripe = 0; stripe < stripes; stripe++) {
            relative.add(folder + "/stripe-" + stripe + "." + extension);
            fileDisks.add(order.get(stripe));
        }
        Map<StorageDisk, Long> needed = new LinkedHashMap<>();
        needed.merge(order.get(0), media.init().length(), Long::sum);
        for (int i = 0; i < media.fragments().size(); i++) {
            needed.merge(order.get(i % stripes), media.fragments().get(i).length(), Long::sum);
        }
        checkRoom(needed, name);
        List<Path> temps = new ArrayList<>();
        List<DirectFileWriter> outs = new ArrayList<>();
        long[] lengths = new long[relative.size()];
        List<Fragment> placed = new ArrayList<>(media.fragments().size());
        try (BackgroundDigest digest = new BackgroundDigest(sha256())) {
            long storedSize = Math.max(1, stored.size());
            try {
                for (int file = 0; file < relative.size(); file++) {
                    Path temp = fileDisks.get(file).root().resolve(ContentStore.TMP).resolve(id + "." + file + ".part");
                    written.add(temp);
                    temps.add(temp);
                    outs.add(new DirectFileWriter(temp));
                }
                Hashing init = new Hashing(outs.get(0), digest);
                stored.writeInit(init);
                expect(init.count, media.init().length(), "the init segment", source);
                lengths[0] = init.count;
                long copied = init.count;
                for (int i = 0; i < media.fragments().size(); i++) {
                    Fragment fragment = media.fragments().get(i);
                    if (fragment.offset() != copied) {
                        throw new IllegalStateException("the fragment index of " + source
                            + " is not contiguous at byte " + copied);
                    }
                    int file = 1 + i % stripes;
                    placed.add(fragment.placedAt(file, lengths[file]));
                    Hashing out = new Hashing(outs.get(file), digest);
                    stored.writeFragment(i, out);
                    expect(out.count, fragment.length(), "fragment " + i, source);
                    lengths[file] += fragment.length();
                    copied += fragment.length();
                    progress.accept((long) (copied * (double) sourceSize / storedSize));
                }
            } catch (IOException | RuntimeException e) {
                closeAll(outs, e);
                throw e;
            }
            closeAll(outs, null);
            List<StoredFile> files = new ArrayList<>();
            for (int file = 0; file < relative.size(); file++) {
                Path target = fileDisks.get(file).root().resolve(relative.get(file));
                Files.createDirectories(target.getParent());
                written.add(target);
                moveIntoPlace(temps.get(file), target);
                files.add(new StoredFile(fileDisks.get(file).name(), relative.get(file), lengths[file]));
            }
            MediaIndex placedMedia = new MediaIndex(media.container(), media.mimeType(), media.codecs(),
                media.durationNs(), media.init(), placed);
            return new Written(new Placement(files), placedMedia, etag(digest.digest()));
        }
    }

    /**
     * Closes (so forces) every file being written. Their failures are added to {@code primary} if
     * there is one, else the first is thrown with the others added to it.
     */
    private static void closeAll(List<DirectFileWriter> outs, Exception primary) throws IOException {
        IOException first = null;
        for (DirectFileWriter out : outs) {
            try {
                out.close();
            } catch (IOException e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Refuses an object that the disks it would go to have no room for, before a byte of it is
     * written: {@code needed} is the bytes each of them would take.
     */
    private static void checkRoom(Map<StorageDisk, Long> needed, String name) throws IngestException {
        for (Map.Entry<StorageDisk, Long> disk : needed.entrySet()) {
            if (disk.getValue() > usableBytes(disk.getKey())) {
                throw new IngestException("no space for " + name + ": it needs " + size(disk.getValue()) + " on disk "
                    + disk.getKey().name() + " (" + disk.getKey().root() + "), which has " + size(usableBytes(
                    disk.getKey())) + " free; free some space there, or add a disk to storage.roots");
            }
        }
    }

    /** A disk, and the space left on it: "disk vda (/srv/rondo) has 12.0 MiB". */
    private static String room(StorageDisk disk) {
        long usable = usableBytes(disk);
        return "disk " + disk.name() + " (" + disk.root() + ")" + (usable == Long.MAX_VALUE ? ""
            : " has " + size(usable));
    }

    /** The bytes a disk has left for files; as good as unlimited where the file system cannot say. */
    private static long usableBytes(StorageDisk disk) {
        try {
            return Files.getFileStore(disk.root()).getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String size(long bytes) {
        return bytes < (1 << 20) ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)
            : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }

    /** Whether a write failed because its file system is full (ENOSPC, or EDQUOT: a quota is). */
    private static boolean noSpaceLeft(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && (message.contains("No space left on device") || message.contains("Disk quota "
                + "exceeded"))) {
                return true;
            }
        }
        return false;
    }

    private static void expect(long wrote, long planned, String what, Path source) {
        if (wrote != planned) {
            throw new IllegalStateException("remuxing " + source + " wrote " + wrote + " bytes for " + what
                + " where its index planned " + planned);
        }
    }

    /** A file being written that hashes and counts what goes through it. */
    private static final class Hashing implements WritableByteChannel {
        private final WritableByteChannel out;
        private final BackgroundDigest digest;
        private long count;

        Hashing(WritableByteChannel out, BackgroundDigest digest) {
            this.out = out;
            this.digest = digest;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            digest.update(src);
            int n = 0;
            while (src.hasRemaining()) {
                n += out.write(src);
            }
            count += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return out.isOpen();
        }

        @Override
        public void close() {
            // The stripe file outlives one fragment's write; copyStriped closes it.
        }
    }

    /** The disks a continuous object's stripes go to, starting at a different disk per object. */
    private List<StorageDisk> stripeOrder(long id) {
        if (policy == PlacementPolicy.MOST_FREE) {
            return List.of(mostFree());
        }
        List<StorageDisk> disks = store.disks();
        List<StorageDisk> order = new ArrayList<>(disks.size());
        int first = (int) Math.floorMod(id, (long) disks.size());
        for (int i = 0; i < disks.size(); i++) {
            order.add(disks.get((first + i) % disks.size()));
        }
        return order;
    }

    private StorageDisk mostFree() {
        return store.disks().stream().max(Comparator.comparingLong(ContentStore::freeBytes)).orElseThrow();
    }

    /** Renames a forced temp file into place, atomically where the file system can, and forces its folder. */
    private static void moveIntoPlace(Path temp, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target);
        }
        try (FileChannel folder = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            folder.force(true);
        } catch (IOException e) {
            // Some file systems cannot open a folder to force it; the rename is then as durable as they make it.
            return;
        }
    }

    private interface PathTest {
        boolean matches(Path path) throws IOException;
    }

    private static int deleteAll(Path folder, PathTest test) throws IOException {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                if (test.matches(entry)) {
                    removed += deleteTree(entry);
                }
            }
        }
        return removed;
    }

    private static int deleteTree(Path path) throws IOException {
        int removed = 0;
        if (Files.isDirectory(path)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
                for (Path entry : entries) {
                    removed += deleteTree(entry);
                }
            }
        }
        Files.delete(path);
        return removed + 1;
    }

    /** The object id a file or folder under {@code rondo/objects/} belongs to, or -1 for a stranger. */
    private static long idOf(Path path) {
        String file = path.getFileName().toString();
        int dot = file.indexOf('.');
        try {
            return Long.parseLong(dot < 0 ? file : file.substring(0, dot));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /** The ETag ingest gives an object of these bytes: a prefix of their SHA-256, quoted. */
    public static String etagOf(byte[] content) {
        MessageDigest digest = sha256();
        digest.update(content);
        return etag(digest);
    }

    private static String etag(MessageDigest digest) {
        return etag(digest.digest());
    }

    private static String etag(byte[] sha256) {
        return "\"" + HexFormat.of().formatHex(sha256, 0, 16) + "\"";
    }
}
