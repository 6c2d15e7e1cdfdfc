package io.rondo.content.ingest;

import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.Placement;
import io.rondo.content.model.StoredFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Copies an object's bytes into the data folder, hashing them for its ETag: a discrete object
 * whole onto the disk with the most room; a continuous one as its init segment and its fragments
 * striped round-robin over the disks as the placement policy says, each disk's share appended to
 * one file so that a stream's read for a round is one contiguous IO. Every file is written under
 * {@code rondo/tmp/}, forced, then moved into place ({@link CrashSafeFiles#moveIntoPlace}).
 */
final class ObjectCopier {

    private static final int COPY_BUFFER = 1 << 20;

    /** Where an object's files went, its fragments placed in them, and its ETag. */
    record Copied(Placement placement, MediaIndex media, String etag) {
    }

    private final ContentStore store;
    private final PlacementPolicy policy;

    ObjectCopier(ContentStore store, PlacementPolicy policy) {
        this.store = store;
        this.policy = policy;
    }

    /**
     * Copies {@code source} as it is, as object {@code id}; every file it creates is added to
     * {@code written}, for the caller to remove on failure.
     */
    Copied copyWhole(long id, Path source, String name, long size, List<Path> written,
                     LongConsumer progress) throws IngestException, IOException {
        StorageDisk disk = DiskSpace.mostFree(store.disks());
        DiskSpace.checkRoom(Map.of(disk, size), name);
        String extension = ObjectNames.extension(name);
        String relative = ContentStore.OBJECTS + "/" + id + (extension.isEmpty() ? "" : "." + extension);
        Path temp = disk.root().resolve(ContentStore.TMP).resolve(id + ".part");
        written.add(temp);
        MessageDigest digest = ETags.sha256();
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
        CrashSafeFiles.moveIntoPlace(temp, target);
        return new Copied(new Placement(List.of(new StoredFile(disk.name(), relative, size))), null,
            ETags.of(digest));
    }

    /**
     * Writes {@code stored}, the remuxed copy of {@code source}, as object {@code id}: its init
     * segment and its fragments striped over the disks. {@code progress} is told how far the copy
     * is in bytes of the source, {@code sourceSize} long; every file it creates is added to
     * {@code written}, for the caller to remove on failure.
     */
    Copied copyStriped(long id, Path source, String name, StoredMedia stored, List<Path> written,
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
        DiskSpace.checkRoom(needed, name);
        List<Path> temps = new ArrayList<>();
        List<DirectFileWriter> outs = new ArrayList<>();
        long[] lengths = new long[relative.size()];
        List<Fragment> placed = new ArrayList<>(media.fragments().size());
        try (BackgroundDigest digest = new BackgroundDigest(ETags.sha256())) {
            long storedSize = Math.max(1, stored.size());
            try {
                for (int file = 0; file < relative.size(); file++) {
                    Path temp = fileDisks.get(file).root().resolve(ContentStore.TMP).resolve(id + "." + file + ".part");
                    written.add(temp);
                    temps.add(temp);
                    outs.add(new DirectFileWriter(temp));
                }
                HashingChannel init = new HashingChannel(outs.get(0), digest);
                stored.writeInit(init);
                expect(init.count(), media.init().length(), "the init segment", source);
                lengths[0] = init.count();
                long copied = init.count();
                for (int i = 0; i < media.fragments().size(); i++) {
                    Fragment fragment = media.fragments().get(i);
                    if (fragment.offset() != copied) {
                        throw new IllegalStateException("the fragment index of " + source
                            + " is not contiguous at byte " + copied);
                    }
                    int file = 1 + i % stripes;
                    placed.add(fragment.placedAt(file, lengths[file]));
                    HashingChannel out = new HashingChannel(outs.get(file), digest);
                    stored.writeFragment(i, out);
                    expect(out.count(), fragment.length(), "fragment " + i, source);
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
                CrashSafeFiles.moveIntoPlace(temps.get(file), target);
                files.add(new StoredFile(fileDisks.get(file).name(), relative.get(file), lengths[file]));
            }
            MediaIndex placedMedia = new MediaIndex(media.container(), media.mimeType(), media.codecs(),
                media.durationNs(), media.init(), placed);
            return new Copied(new Placement(files), placedMedia, ETags.ofSha256(digest.digest()));
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

    private static void expect(long wrote, long planned, String what, Path source) {
        if (wrote != planned) {
            throw new IllegalStateException("remuxing " + source + " wrote " + wrote + " bytes for " + what
                + " where its index planned " + planned);
        }
    }

    /** The disks a continuous object's stripes go to, starting at a different disk per object. */
    private List<StorageDisk> stripeOrder(long id) {
        if (policy == PlacementPolicy.MOST_FREE) {
            return List.of(DiskSpace.mostFree(store.disks()));
        }
        List<StorageDisk> disks = store.disks();
        List<StorageDisk> order = new ArrayList<>(disks.size());
        int first = (int) Math.floorMod(id, (long) disks.size());
        for (int i = 0; i < disks.size(); i++) {
            order.add(disks.get((first + i) % disks.size()));
        }
        return order;
    }
}
