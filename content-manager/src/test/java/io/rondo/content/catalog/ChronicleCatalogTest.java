package io.rondo.content.catalog;

import io.rondo.content.model.MediaObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChronicleCatalogTest {

    @TempDir
    Path data;

    private ChronicleCatalog catalog;

    @AfterEach
    void closeCatalog() {
        if (catalog != null) {
            catalog.close();
        }
    }

    @Test
    void anObjectIsFoundByIdAndByName() {
        catalog = open(data);
        MediaObject report = CatalogObjects.discrete(catalog.nextId(), "/docs/report.pdf");
        catalog.put(report);
        assertEquals(Optional.of(report), catalog.byId(report.id()));
        assertEquals(Optional.of(report), catalog.byName("/docs/report.pdf"));
        assertEquals(Optional.empty(), catalog.byId(report.id() + 1));
        assertEquals(Optional.empty(), catalog.byName("/docs/other.pdf"));
        assertEquals(1, catalog.size());
        assertTrue(Files.exists(data.resolve("catalog/objects.cmap")), "the catalog lives in dataDir/catalog");
    }

    @Test
    void putReplacesTheObjectOfTheSameId() {
        catalog = open(data);
        long id = catalog.nextId();
        catalog.put(CatalogObjects.discrete(id, "/clip.webm"));
        MediaObject film = CatalogObjects.film(id, "/clip.webm", 300, 2, 1);
        catalog.put(film);
        assertEquals(Optional.of(film), catalog.byId(id));
        assertEquals(Optional.of(film), catalog.byName("/clip.webm"));
        assertEquals(1, catalog.size());
    }

    @Test
    void byNameNeverAnswersWithWhatAWriteReplaced() {
        catalog = open(data);
        long id = catalog.nextId();
        MediaObject first = CatalogObjects.discrete(id, "/docs/a.pdf");
        catalog.put(first);
        assertEquals(Optional.of(first), catalog.byName("/docs/a.pdf"));
        assertEquals(Optional.of(first), catalog.byName("/docs/a.pdf"), "asked again: the same object");

        MediaObject changed = new MediaObject(id, first.name(), first.kind(), first.mimeType(), first.size() + 1,
            "\"changed\"", first.createdMs(), first.modifiedMs() + 1, first.placement(), null);
        catalog.put(changed);
        assertEquals(Optional.of(changed), catalog.byName("/docs/a.pdf"), "a put of the same id");

        MediaObject moved = changed.renamed("/docs/b.pdf", changed.modifiedMs() + 1);
        catalog.put(moved);
        assertEquals(Optional.empty(), catalog.byName("/docs/a.pdf"), "the old name after a move");
        assertEquals(Optional.of(moved), catalog.byName("/docs/b.pdf"));

        MediaObject replacement = CatalogObjects.discrete(catalog.nextId(), "/docs/a.pdf");
        catalog.put(replacement);
        assertEquals(Optional.of(replacement), catalog.byName("/docs/a.pdf"), "another object under the old name");

        catalog.remove(moved.id());
        assertEquals(Optional.empty(), catalog.byName("/docs/b.pdf"), "a removed object");
        catalog.remove(replacement.id());
        assertEquals(Optional.empty(), catalog.byName("/docs/a.pdf"));
    }

    @Test
    void aReaderNeverSeesAnOlderVersionThanOneItSaw() throws Exception {
        catalog = open(data);
        long id = catalog.nextId();
        MediaObject base = CatalogObjects.discrete(id, "/hot.pdf");
        catalog.put(base);
        int versions = 2_000;
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService readers = Executors.newFixedThreadPool(3);
        try {
            List<Future<Long>> seen = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                seen.add(readers.submit(() -> {
                    long newest = 0;
                    long reads = 0;
                    while (writing.get() || reads == 0) {
                        long version = catalog.byName("/hot.pdf").orElseThrow().size() - base.size();
                        assertTrue(version >= newest, "version " + version + " after " + newest);
                        newest = version;
                        reads++;
                    }
                    return newest;
                }));
            }
            for (int v = 1; v <= versions; v++) {
                catalog.put(new MediaObject(id, base.name(), base.kind(), base.mimeType(), base.size() + v,
                    "\"v" + v + "\"", base.createdMs(), base.modifiedMs() + v, base.placement(), null));
            }
            writing.set(false);
            for (Future<Long> reader : seen) {
                assertTrue(reader.get(30, TimeUnit.SECONDS) <= versions);
            }
            assertEquals(base.size() + versions, catalog.byName("/hot.pdf").orElseThrow().size(),
                "after the last put, the last version");
        } finally {
            readers.shutdownNow();
        }
    }

    @Test
    void renamingFreesTheOldName() {
        catalog = open(data);
        MediaObject clip = CatalogObjects.discrete(catalog.nextId(), "/clip.webm");
        catalog.put(clip);
        MediaObject moved = clip.renamed("/videos/clip.webm", CatalogObjects.CREATED_MS + 5);
        catalog.put(moved);
        assertEquals(Optional.empty(), catalog.byName("/clip.webm"));
        assertEquals(Optional.of(moved), catalog.byName("/videos/clip.webm"));
        MediaObject other = CatalogObjects.discrete(catalog.nextId(), "/clip.webm");
        catalog.put(other);
        assertEquals(List.of(other, moved), catalog.all());
    }

    @Test
    void removeReturnsTheObjectAndFreesItsName() {
        catalog = open(data);
        MediaObject clip = CatalogObjects.discrete(catalog.nextId(), "/clip.webm");
        catalog.put(clip);
        assertEquals(Optional.of(clip), catalog.remove(clip.id()));
        assertEquals(Optional.empty(), catalog.remove(clip.id()));
        assertEquals(Optional.empty(), catalog.byId(clip.id()));
        assertEquals(Optional.empty(), catalog.byName("/clip.webm"));
        assertEquals(0, catalog.size());
        MediaObject again = CatalogObjects.discrete(catalog.nextId(), "/clip.webm");
        catalog.put(again);
        assertEquals(Optional.of(again), catalog.byName("/clip.webm"));
    }

    @Test
    void aNameTakenByAnotherObjectIsRefused() {
        catalog = open(data);
        MediaObject first = CatalogObjects.discrete(catalog.nextId(), "/clip.webm");
        MediaObject second = CatalogObjects.discrete(catalog.nextId(), "/other.webm");
        catalog.put(first);
        catalog.put(second);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> catalog.put(second.renamed("/clip.webm", 0)));
        assertTrue(refused.getMessage().contains("/clip.webm") && refused.getMessage().contains("object "
            + first.id()), refused.getMessage());
        assertEquals(Optional.of(first), catalog.byName("/clip.webm"));
        assertEquals(Optional.of(second), catalog.byId(second.id()));
        assertEquals(List.of(first, second), catalog.all());
    }

    @Test
    void badObjectsAreRefused() {
        catalog = open(data);
        assertThrows(IllegalArgumentException.class, () -> catalog.put(CatalogObjects.discrete(0, "/zero")));
        assertThrows(IllegalArgumentException.class, () -> catalog.put(CatalogObjects.discrete(1, "")));
        MediaObject unnamed = CatalogObjects.discrete(1, "/named").renamed(null, 0);
        assertThrows(IllegalArgumentException.class, () -> catalog.put(unnamed));
        assertEquals(0, catalog.size());
    }

    @Test
    void idsAreNeverReusedAcrossCloseAndReopen() {
        catalog = open(data);
        Set<Long> issued = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            issued.add(catalog.nextId());
        }
        long last = catalog.nextId();
        issued.add(last);
        catalog.put(CatalogObjects.discrete(last, "/last"));
        catalog.remove(last);
        catalog.close();
        for (int reopen = 0; reopen < 3; reopen++) {
            catalog = open(data);
            for (int i = 0; i < 3; i++) {
                long id = catalog.nextId();
                assertTrue(issued.add(id), "id " + id + " was handed out before: " + issued);
                assertTrue(id > last, "ids keep growing: " + id + " after " + last);
                last = id;
            }
            catalog.close();
        }
        catalog = null;
    }

    @Test
    void anIdPutWithoutNextIdIsNotHandedOutLater() {
        catalog = open(data);
        catalog.put(CatalogObjects.discrete(1_000, "/imported"));
        catalog.close();
        catalog = open(data);
        assertEquals(1_001, catalog.nextId());
    }

    @Test
    void everythingSurvivesCloseAndReopen() {
        catalog = open(data);
        List<MediaObject> objects = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            MediaObject object = CatalogObjects.numbered(catalog.nextId(), i);
            catalog.put(object);
            objects.add(object);
        }
        catalog.remove(objects.remove(3).id());
        String oldName = objects.get(7).name();
        MediaObject renamed = objects.get(7).renamed("/renamed", 99);
        catalog.put(renamed);
        objects.set(7, renamed);
        catalog.close();

        catalog = open(data);
        assertFalse(catalog.recovered(), "a closed catalog needs no recovery");
        assertEquals(objects.size(), catalog.size());
        for (MediaObject object : objects) {
            assertEquals(Optional.of(object), catalog.byId(object.id()));
            assertEquals(Optional.of(object), catalog.byName(object.name()));
        }
        assertEquals(Optional.empty(), catalog.byName(oldName));
        assertEquals(Optional.empty(), catalog.byName(CatalogObjects.numberedName(3)));
        assertEquals(objects.stream().sorted((a, b) -> a.name().compareTo(b.name())).toList(), catalog.all());
    }

    @Test
    void aContinuousObjectWithA7200FragmentTableRoundTripsExactly() {
        catalog = open(data);
        MediaObject film = CatalogObjects.film(catalog.nextId(), "/videos/two-hours.webm", 7200, 4, 11);
        catalog.put(film);
        MediaObject read = catalog.byName(film.name()).orElseThrow();
        assertEquals(film, read);
        assertEquals(film.media().fragments(), read.media().fragments());
        catalog.close();
        catalog = open(data);
        assertEquals(Optional.of(film), catalog.byId(film.id()));
    }

    @Test
    void anEntryUpToTheLimitFitsAndALargerOneIsRefused() {
        catalog = open(data);
        MediaObject base = CatalogObjects.discrete(catalog.nextId(), "/big");
        // An empty ETag takes 1 byte; one of about 2 MB takes 3 for its length and its characters.
        int overhead = MediaObjectCodec.encode(withEtag(base, "")).length + 2;
        MediaObject largest = withEtag(base, "e".repeat(ChronicleCatalog.MAX_ENTRY_BYTES - overhead));
        assertEquals(ChronicleCatalog.MAX_ENTRY_BYTES, MediaObjectCodec.encode(largest).length);
        catalog.put(largest);
        assertEquals(Optional.of(largest), catalog.byId(base.id()));

        MediaObject tooLarge = withEtag(CatalogObjects.discrete(catalog.nextId(), "/bigger"),
            "e".repeat(ChronicleCatalog.MAX_ENTRY_BYTES));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> catalog.put(tooLarge));
        assertTrue(refused.getMessage().contains("/bigger"), refused.getMessage());
        assertEquals(1, catalog.size());
        MediaObject film = CatalogObjects.film(catalog.nextId(), "/film", 100_000, 6, 1);
        catalog.put(film);
        assertEquals(Optional.of(film), catalog.byName("/film"));
    }

    @Test
    void allAndWithPrefixAreInNameOrder() {
        catalog = open(data);
        List<String> names = List.of("/b/2", "/a", "/b/10", "/ab", "/b", "/b/1", "/c\uffff", "/c\uffff\uffff", "/d");
        for (String name : names) {
            catalog.put(CatalogObjects.discrete(catalog.nextId(), name));
        }
        assertEquals(names.stream().sorted().toList(), namesOf(catalog.all()));
        assertEquals(List.of("/a", "/ab"), namesOf(catalog.withPrefix("/a")));
        assertEquals(List.of("/b", "/b/1", "/b/10", "/b/2"), namesOf(catalog.withPrefix("/b")));
        assertEquals(List.of("/b/1", "/b/10"), namesOf(catalog.withPrefix("/b/1")));
        assertEquals(List.of("/c\uffff", "/c\uffff\uffff"), namesOf(catalog.withPrefix("/c\uffff")));
        assertEquals(List.of(), namesOf(catalog.withPrefix("/e")));
        assertEquals(namesOf(catalog.all()), namesOf(catalog.withPrefix("")));
    }

    /** Pages of a prefix, each starting after the last name of the one before, add up to the whole listing. */
    @Test
    void pagesOfAPrefixStartAfterTheLastNameAndAddUpToTheListing() {
        catalog = open(data);
        for (String name : List.of("/b/2", "/a", "/b/10", "/ab", "/b", "/b/1", "/c", "/b/3")) {
            catalog.put(CatalogObjects.discrete(catalog.nextId(), name));
        }
        assertEquals(List.of("/b", "/b/1"), namesOf(catalog.page("/b", null, 2)));
        assertEquals(List.of("/b/10", "/b/2"), namesOf(catalog.page("/b", "/b/1", 2)));
        assertEquals(List.of("/b/3"), namesOf(catalog.page("/b", "/b/2", 2)));
        assertEquals(List.of(), namesOf(catalog.page("/b", "/b/3", 2)));
        assertEquals(List.of("/b/2", "/b/3"), namesOf(catalog.page("/b/", "/b/10", 5)), "after a name between two");
        assertEquals(List.of("/b", "/b/1"), namesOf(catalog.page("/b", "/a", 2)), "after a name before the prefix");
        assertEquals(List.of(), namesOf(catalog.page("/b", "/c", 2)), "after a name past the prefix");
    }

    @Test
    void aCatalogOfAnotherSchemaVersionIsRefusedWithWhatToDo() throws Exception {
        catalog = open(data);
        catalog.put(CatalogObjects.discrete(catalog.nextId(), "/kept"));
        catalog.close();
        catalog = null;
        Path schema = data.resolve("catalog").resolve(CatalogFolder.SCHEMA_FILE);
        String written = Files.readString(schema);
        assertTrue(written.contains("version=" + MediaObjectCodec.SCHEMA_VERSION), written);
        Files.writeString(schema, written.replace("version=" + MediaObjectCodec.SCHEMA_VERSION, "version=7"));

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> open(data));
        String message = refused.getMessage();
        assertTrue(message.contains("schema version 7"), "says what it found: " + message);
        assertTrue(message.contains("reads schema version " + MediaObjectCodec.SCHEMA_VERSION),
            "says what it expects: " + message);
        assertTrue(message.contains("Run the Rondo release that wrote it") && message.contains("aside"),
            "says what to do: " + message);

        Files.writeString(schema, written);
        catalog = open(data);
        assertTrue(catalog.byName("/kept").isPresent(), "the refused open changed nothing");
    }

    @Test
    void mapsWithoutASchemaFileAreRefused() throws Exception {
        open(data).close();
        Files.delete(data.resolve("catalog").resolve(CatalogFolder.SCHEMA_FILE));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> open(data));
        assertTrue(refused.getMessage().contains(CatalogFolder.SCHEMA_FILE), refused.getMessage());
    }

    @Test
    void aCatalogOpenAlreadyIsRefusedAndAClosedOneRefusesWork() {
        catalog = open(data);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> open(data));
        assertTrue(refused.getMessage().contains("open already"), refused.getMessage());
        catalog.close();
        catalog.close();
        assertThrows(IllegalStateException.class, () -> catalog.byId(1));
        assertThrows(IllegalStateException.class, () -> catalog.nextId());
        catalog = open(data);
        assertEquals(0, catalog.size());
    }

    /**
     * Readers on three threads, each reading from before the writer's first write until its last,
     * while the writer adds, replaces, renames and removes: every object a reader gets is whole (its
     * fragment table is the one its name promises) and every listing is in name order with no name twice.
     */
    @Test
    void readersSeeWholeObjectsWhileAWriterWorks() throws Exception {
        catalog = open(data);
        int series = 40;
        for (int i = 0; i < series; i++) {
            catalog.put(CatalogObjects.film(catalog.nextId(), "/f/" + i + "/v0", 500, 3, i));
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        CountDownLatch reading = new CountDownLatch(3);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            Future<Integer> writer = threads.submit(() -> {
                assertTrue(reading.await(30, TimeUnit.SECONDS), "every reader started before the first write");
                int writes = 0;
                for (int round = 1; round <= 30; round++) {
                    for (long id = 1; id <= series; id++) {
                        String name = "/f/" + (id - 1) + "/v" + round;
                        if (round % 7 == 0) {
                            catalog.remove(id);
                        }
                        catalog.put(CatalogObjects.film(id, name, 400 + round * 10, 3, id * 1000 + round));
                        writes++;
                    }
                }
                writing.set(false);
                return writes;
            });
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                int reader = r;
                readers.add(threads.submit(() -> {
                    int reads = 0;
                    while (writing.get()) {
                        if (reads == 0) {
                            reading.countDown();
                        }
                        long id = 1 + reads % series;
                        catalog.byId(id).ifPresent(ChronicleCatalogTest::assertWhole);
                        List<MediaObject> listed = reader == 0 ? catalog.all() : catalog.withPrefix("/f/" + id % 10);
                        List<String> names = namesOf(listed);
                        assertEquals(names.stream().sorted().distinct().toList(), names);
                        listed.forEach(ChronicleCatalogTest::assertWhole);
                        if (!listed.isEmpty()) {
                            MediaObject first = listed.get(0);
                            catalog.byName(first.name()).ifPresent(ChronicleCatalogTest::assertWhole);
                        }
                        reads++;
                    }
                }));
            }
            assertEquals(30 * series, writer.get(60, TimeUnit.SECONDS));
            for (Future<?> reader : readers) {
                reader.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(series, catalog.size());
        assertEquals(CatalogObjects.film(1, "/f/0/v30", 700, 3, 1030), catalog.byId(1).orElseThrow());
    }

    /** How fast this reopens is CatalogReopenBenchmark's figure (target: under a second), not asserted here. */
    @Test
    void aHundredThousandObjectsAreAllThereAfterAReopen() {
        catalog = open(data);
        int count = 100_000;
        for (int i = 0; i < count; i++) {
            catalog.put(CatalogObjects.discrete(catalog.nextId(), CatalogObjects.numberedName(i)));
        }
        catalog.close();

        catalog = open(data);

        assertEquals(count, catalog.size());
        assertEquals(Optional.of(CatalogObjects.discrete(count, CatalogObjects.numberedName(count - 1))),
            catalog.byName(CatalogObjects.numberedName(count - 1)));
        assertEquals(count + 1, catalog.nextId());
    }

    /** A film of this test's series is whole when its table has the length its name's round gives it. */
    private static void assertWhole(MediaObject film) {
        String name = film.name();
        int round = Integer.parseInt(name.substring(name.lastIndexOf("/v") + 2));
        long seed = round == 0 ? (film.id() - 1) : film.id() * 1000 + round;
        int fragments = round == 0 ? 500 : 400 + round * 10;
        assertEquals(CatalogObjects.film(film.id(), name, fragments, 3, seed), film);
    }

    private static MediaObject withEtag(MediaObject object, String etag) {
        return new MediaObject(object.id(), object.name(), object.kind(), object.mimeType(), object.size(), etag,
            object.createdMs(), object.modifiedMs(), object.placement(), object.media());
    }

    private static List<String> namesOf(List<MediaObject> objects) {
        return objects.stream().map(MediaObject::name).toList();
    }

    /** Opens the catalog in {@code data} on the machine's clock. */
    private static ChronicleCatalog open(Path data) {
        return ChronicleCatalog.open(data, Clock.systemUTC());
    }
}
