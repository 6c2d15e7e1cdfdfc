package io.rondo.content.ingest;

import io.rondo.content.model.MediaObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The directory tree: listing by folder, renaming, deleting only what nobody reads, reading while ingesting. */
class DirectoryTest {

    @TempDir
    Path temp;

    private final InMemoryCatalog catalog = new InMemoryCatalog();
    private ContentStore store;
    private IngestService ingest;
    private Directory directory;

    @BeforeEach
    void library() throws Exception {
        store = new ContentStore(catalog, List.of(new StorageDisk("d0", Files.createDirectories(temp.resolve("d")))));
        ingest = new IngestService(store, PlacementPolicy.STRIPED, 1_000_000_000L, Clock.systemUTC());
        directory = new Directory(store, Clock.systemUTC());
    }

    private MediaObject put(String name, int size) throws Exception {
        Path file = Files.write(temp.resolve("in-" + size + "-" + name.replace('/', '_')), new byte[size]);
        return ingest.ingest(new IngestRequest(file, name, null, 0), copied -> { });
    }

    @Test
    void aFolderListsItsSubFoldersWithTotalsThenItsObjects() throws Exception {
        put("/index.html", 100);
        put("/videos/a.txt", 1000);
        put("/videos/deep/b.txt", 2000);
        put("/docs/c.txt", 10);

        List<Directory.Entry> root = directory.list("/");

        assertEquals(List.of("/docs/", "/videos/", "/index.html"), root.stream().map(Directory.Entry::name).toList());
        Directory.Entry videos = root.get(1);
        assertTrue(videos.folder());
        assertEquals(2, videos.objects(), "objects at any depth below");
        assertEquals(3000, videos.size());
        assertEquals(List.of("/videos/deep/", "/videos/a.txt"),
            directory.list("/videos").stream().map(Directory.Entry::name).toList());
    }

    @Test
    void renamingMovesTheNameAndRefusesATakenOne() throws Exception {
        MediaObject object = put("/a.txt", 5);
        put("/b.txt", 5);

        MediaObject renamed = directory.rename("/a.txt", "/archive/a.txt");

        assertEquals(object.id(), renamed.id());
        assertTrue(catalog.byName("/a.txt").isEmpty());
        assertEquals(renamed, catalog.byName("/archive/a.txt").orElseThrow());
        IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
            () -> directory.rename("/archive/a.txt", "/b.txt"));
        assertTrue(taken.getMessage().contains("already exists"), taken.getMessage());
    }

    // A path names one thing: an object and a folder never share a name, whichever comes first.
    @Test
    void anObjectAndAFolderNeverShareAName() throws Exception {
        put("/t", 10);
        put("/u/a.txt", 10);

        IngestException underObject = assertThrows(IngestException.class, () -> put("/t/a.txt", 10));
        assertTrue(underObject.getMessage().contains("an object is named /t"), underObject.getMessage());
        IngestException overFolder = assertThrows(IngestException.class, () -> put("/u", 10));
        assertTrue(overFolder.getMessage().contains("a folder is named /u/"), overFolder.getMessage());
        IllegalArgumentException moved = assertThrows(IllegalArgumentException.class,
            () -> directory.rename("/t", "/u"));
        assertTrue(moved.getMessage().contains("a folder is named /u/"), moved.getMessage());
        assertEquals("/t/inside", directory.rename("/t", "/t/inside").name(), "an object may move under its own name");
    }

    // café in NFD and in NFC is one object, found by either spelling.
    @Test
    void aNameDecomposedOrComposedIsOneObject() throws Exception {
        MediaObject composed = put("/caf\u00e9.txt", 10);

        assertEquals("/caf\u00e9.txt", composed.name());
        assertThrows(IngestException.class, () -> put("/cafe\u0301.txt", 10), "the same name, spelt apart");
        assertEquals(composed.id(), directory.open("/cafe\u0301.txt").orElseThrow().object().id());
    }

    // As on a Unix file system: a delete never waits for readers; they go on with the file they opened.
    @Test
    void anObjectBeingReadIsDeletedAtOnceAndItsReadersKeepTheFileTheyOpened() throws Exception {
        MediaObject object = put("/clip.txt", 50);
        Path file = store.pathOf(object.placement().files().get(0));
        Directory.Lease reader = directory.open("/clip.txt").orElseThrow();
        List<MediaObject> unread = new ArrayList<>();
        directory.whenDeletedAndUnread(unread::add);

        try (FileChannel open = FileChannel.open(file)) {
            directory.delete("/clip.txt");

            assertFalse(Files.exists(file), "its file is unlinked at once");
            assertTrue(catalog.byName("/clip.txt").isEmpty(), "its name is gone at once");
            assertEquals(50, open.read(ByteBuffer.allocate(100), 0), "a reader reads on from the file it opened");
            assertEquals(List.of(), unread, "a reader still holds it");
            reader.close();
            reader.close();
            assertEquals(List.of(object), unread, "the last reader done, whoever keeps its files open hears of it");
        }
        MediaObject unreadNow = put("/other.txt", 10);
        directory.delete("/other.txt");
        assertEquals(List.of(object, unreadNow), unread, "an object no one reads is unread at its delete");
    }

    /**
     * Readers keep reading whole, correct bytes while another thread ingests: one reader loops from a
     * read before the first ingest to a read after the last.
     */
    @Test
    void ingestingGoesOnWhileAnotherThreadReads() throws Exception {
        byte[] content = new byte[200_000];
        Arrays.fill(content, (byte) 7);
        MediaObject read = ingest.ingest(new IngestRequest(Files.write(temp.resolve("r.bin"), content), "/r.bin",
            null, 0), copied -> { });
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger reads = new AtomicInteger();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            while (!done.get()) {
                Directory.Lease lease = directory.open("/r.bin").orElseThrow();
                try {
                    byte[] bytes = Files.readAllBytes(store.pathOf(read.placement().files().get(0)));
                    assertArrayEquals(content, bytes);
                    assertEquals(read, catalog.byName("/r.bin").orElseThrow());
                    reads.incrementAndGet();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } finally {
                    lease.close();
                }
            }
        });
        await("the reader's first whole read").atMost(Duration.ofSeconds(10))
            .until(() -> reader.isDone() || reads.get() > 0);
        for (int i = 0; i < 30; i++) {
            put("/new/" + i + ".bin", 100_000 + i);
        }
        int readsByTheLastIngest = reads.get();
        await("a whole read after the last ingest").atMost(Duration.ofSeconds(10))
            .until(() -> reader.isDone() || reads.get() > readsByTheLastIngest);
        done.set(true);
        reader.get(30, TimeUnit.SECONDS);

        assertEquals(31, catalog.size());
        assertTrue(reads.get() > readsByTheLastIngest, "the reader read after the last ingest");
    }
}
