package io.rondo.server.live;

import io.rondo.content.ingest.ContentStore;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.ingest.StorageDisk;
import io.rondo.content.media.LiveHeader;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.device.WritableFile;
import io.rondo.server.runtime.DiskRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A recording's files: its init segment, written and forced when it starts; its data file, written
 * by the disk's rounds and reserved ahead ({@link WritableFile#allocate}) so that no round pays for
 * allocation (papers/002 Section 4); and its mark in {@code rondo/live/}, which says it is being
 * written until it is closed. Blocking: the recordings' worker calls it, never an event loop or a
 * disk's thread.
 */
final class LiveFiles {

    private static final Logger LOG = LoggerFactory.getLogger(LiveFiles.class);
    private static final String MARK = ".recording";

    private final ContentStore store;
    private final DiskRuntime disks;

    LiveFiles(ContentStore store, DiskRuntime disks) {
        this.store = store;
        this.disks = disks;
    }

    /**
     * A recording's files, created.
     *
     * @param id       its catalog id
     * @param name     its name
     * @param init     its init segment's file
     * @param data     its data file (length 0 here: the catalog entry gives what is durable)
     * @param writable the data file, open for the disk's writes
     * @param mark     its mark in {@code rondo/live/}
     */
    record Created(long id, String name, StoredFile init, StoredFile data, WritableFile writable, Path mark) {
    }

    /** An interrupted recording's mark, found at start: its id and the name it was recorded under. */
    record Interrupted(long id, String name, Path mark) {
    }

    /** The disk a new recording goes to: the one with the most room. */
    String roomiest() {
        return store.disks().stream().max(Comparator.comparingLong(ContentStore::freeBytes)).orElseThrow().name();
    }

    /**
     * Creates the files of recording {@code id} on disk {@code diskName}, with {@code reserveBytes}
     * of its data file reserved.
     *
     * @throws IOException if the disk has no room for the reservation (a message saying the disk
     *                     is full), or the files cannot be written
     */
    Created create(long id, String name, String diskName, LiveHeader header, long reserveBytes) throws IOException {
        StorageDisk disk = store.disk(diskName).orElseThrow();
        long free = ContentStore.freeBytes(disk);
        if (free < reserveBytes + header.init().length) {
            throw new IOException("the disk is full: disk " + disk.name() + " has " + free + " bytes free, a recording "
                + "reserves " + reserveBytes);
        }
        String extension = ObjectNames.extension(name).isEmpty() ? header.container() : ObjectNames.extension(name);
        String folder = ContentStore.objectFolder(id);
        StoredFile init = new StoredFile(disk.name(), folder + "/init." + extension, header.init().length);
        StoredFile data = new StoredFile(disk.name(), folder + "/stripe-0." + extension, 0);
        Path mark = disk.root().resolve(ContentStore.LIVE).resolve(id + MARK);
        Files.createDirectories(mark.getParent());
        writeForced(mark, name.getBytes(StandardCharsets.UTF_8));
        Path initPath = store.pathOf(init);
        Files.createDirectories(initPath.getParent());
        writeForced(initPath, header.init());
        WritableFile writable = disks.openForWriting(data);
        try {
            writable.allocate(0, reserveBytes);
        } catch (IOException | RuntimeException e) {
            writable.close();
            throw e;
        }
        return new Created(id, name, init, data, writable, mark);
    }

    /** Closes a recording's files: the data file cut to {@code dataBytes}, forced and closed; its mark removed. */
    void close(Created files, long dataBytes) throws IOException {
        try (WritableFile file = files.writable()) {
            file.truncate(dataBytes);
            file.force();
        }
        Files.deleteIfExists(files.mark());
    }

    /** The marks of recordings a crash interrupted, on every disk. */
    List<Interrupted> interrupted() throws IOException {
        List<Interrupted> found = new ArrayList<>();
        for (StorageDisk disk : store.disks()) {
            Path live = disk.root().resolve(ContentStore.LIVE);
            if (!Files.isDirectory(live)) {
                continue;
            }
            try (Stream<Path> marks = Files.list(live)) {
                for (Path mark : marks.filter(path -> path.getFileName().toString().endsWith(MARK)).toList()) {
                    String file = mark.getFileName().toString();
                    try {
                        long id = Long.parseLong(file.substring(0, file.length() - MARK.length()));
                        found.add(new Interrupted(id, Files.readString(mark, StandardCharsets.UTF_8), mark));
                    } catch (NumberFormatException e) {
                        LOG.warn("{} is not a recording's mark; left alone", mark);
                    }
                }
            }
        }
        return found;
    }

    /** Cuts an interrupted recording's data file to what its catalog entry holds, and removes its mark. */
    void closeInterrupted(Interrupted recording, StoredFile data) throws IOException {
        Path path = store.pathOf(data);
        if (Files.exists(path)) {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.truncate(data.length());
                channel.force(true);
            }
        }
        Files.deleteIfExists(recording.mark());
    }

    /** Removes what an interrupted recording left before its first durable round: no entry names it. */
    void removeInterrupted(Interrupted recording) throws IOException {
        for (StorageDisk disk : store.disks()) {
            Path folder = disk.root().resolve(ContentStore.objectFolder(recording.id()));
            if (Files.isDirectory(folder)) {
                try (Stream<Path> files = Files.list(folder)) {
                    for (Path file : files.toList()) {
                        Files.deleteIfExists(file);
                    }
                }
                Files.deleteIfExists(folder);
            }
        }
        Files.deleteIfExists(recording.mark());
    }

    private static void writeForced(Path path, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }
}
