package io.rondo.content.ingest;

import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ingest: whole objects in place, media striped over the disks, bad input refused, crash leftovers cleaned. */
class IngestServiceTest {

    private static final long ROUND_NS = 1_000_000_000L;
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-21T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path temp;

    private final InMemoryCatalog catalog = new InMemoryCatalog();

    private IngestService service(int disks) throws IOException {
        List<StorageDisk> storage = new java.util.ArrayList<>();
        for (int i = 0; i < disks; i++) {
            storage.add(new StorageDisk("d" + i, Files.createDirectories(temp.resolve("disk" + i))));
        }
        return new IngestService(new ContentStore(catalog, storage), PlacementPolicy.STRIPED, ROUND_NS, CLOCK);
    }

    private ContentStore store(IngestService ignored) throws IOException {
        List<StorageDisk> storage = new java.util.ArrayList<>();
        try (Stream<Path> disks = Files.list(temp)) {
            disks.filter(path -> path.getFileName().toString().startsWith("disk")).sorted().forEach(path ->
                storage.add(new StorageDisk("d" + path.getFileName().toString().substring(4), path)));
        }
        return new ContentStore(catalog, storage);
    }

    private Path file(String name, byte[] bytes) throws IOException {
        Path path = Files.createDirectories(temp.resolve("in")).resolve(name);
        Files.write(path, bytes);
        return path;
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void aDocumentIsCopiedWholeWithAContentHashETagAndACatalogEntry() throws Exception {
        IngestService service = service(2);
        byte[] bytes = random(3_000_000, 1);
        long[] progress = {0};

        MediaObject object = service.ingest(IngestRequest.of(file("report.pdf", bytes)),
            copied -> progress[0] = copied);

        assertEquals("/report.pdf", object.name());
        assertEquals(Kind.DISCRETE, object.kind());
        assertEquals("application/pdf", object.mimeType());
        assertEquals(bytes.length, object.size());
        assertNull(object.media());
        assertEquals(bytes.length, progress[0], "progress reached the whole size");
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 16);
        assertEquals("\"" + sha + "\"", object.etag());
        assertEquals(CLOCK.millis(), object.createdMs());
        assertEquals(1, object.placement().files().size());
        assertArrayEquals(bytes, Files.readAllBytes(store(service).pathOf(object.placement().files().get(0))));
        assertEquals(object, catalog.byName("/report.pdf").orElseThrow());
        assertNoTempFiles();
    }

    @Test
    void continuousMediaIsStripedRoundRobinAndEachFragmentIsFoundWhereThePlacementSays() throws Exception {
        Path clip = someClip();
        IngestService service = service(3);
        byte[] original = storedCopy(clip);

        MediaObject object = service.ingest(new IngestRequest(clip, "/videos/clip.webm", null, 0), copied -> { });

        assertEquals(original.length, object.size(), "the object is its stored copy, remuxed a fragment a round");

        assertEquals(Kind.CONTINUOUS, object.kind());
        List<Fragment> fragments = object.media().fragments();
        assertTrue(fragments.size() >= 2, "a few one-second fragments: " + fragments.size());
        ContentStore store = store(service);
        List<StoredFile> files = object.placement().files();
        assertEquals(1 + Math.min(3, fragments.size()), files.size(), "init segment plus one stripe per disk");
        assertEquals(files.size() - 1, files.stream().skip(1).map(StoredFile::disk).distinct().count(),
            "each stripe on its own disk");
        byte[] init = Files.readAllBytes(store.pathOf(files.get(0)));
        assertArrayEquals(Arrays.copyOfRange(original, 0, (int) object.media().init().end()), init);
        for (int i = 0; i < fragments.size(); i++) {
            Fragment fragment = fragments.get(i);
            assertEquals(1 + i % (files.size() - 1), fragment.file(), "round-robin: fragment " + i);
            byte[] stored = new byte[(int) fragment.length()];
            try (RandomAccessFile in = new RandomAccessFile(store.pathOf(files.get(fragment.file())).toFile(), "r")) {
                in.seek(fragment.fileOffset());
                in.readFully(stored);
            }
            assertArrayEquals(Arrays.copyOfRange(original, (int) fragment.offset(),
                (int) (fragment.offset() + fragment.length())), stored, "fragment " + i + " is one contiguous run");
        }
        for (int file = 1; file < files.size(); file++) {
            assertEquals(files.get(file).length(), Files.size(store.pathOf(files.get(file))));
        }
    }

    @Test
    void aTakenNameIsRefusedAndNothingIsWritten() throws Exception {
        IngestService service = service(1);
        service.ingest(IngestRequest.of(file("a.txt", "one".getBytes())), copied -> { });

        IngestException refused = assertThrows(IngestException.class,
            () -> service.ingest(new IngestRequest(file("b.txt", "two".getBytes()), "/a.txt", null, 0), c -> { }));

        assertTrue(refused.getMessage().contains("already exists"), refused.getMessage());
        assertEquals(1, catalog.size());
        assertEquals(1, countObjectFiles());
    }

    @Test
    void badInputIsRefusedWithTheReason() throws Exception {
        IngestService service = service(1);
        Path empty = file("empty.txt", new byte[0]);
        Path garbageWebm = file("clip.webm", random(10_000, 2));
        Path garbageMp4 = file("clip.mp4", random(10_000, 3));
        Path folder = Files.createDirectories(temp.resolve("a-folder"));

        assertRefused(service, IngestRequest.of(temp.resolve("missing.pdf")), "does not exist");
        assertRefused(service, IngestRequest.of(folder), "not a regular file");
        assertRefused(service, IngestRequest.of(empty), "is empty");
        assertRefused(service, IngestRequest.of(garbageWebm), "not a WebM");
        assertRefused(service, IngestRequest.of(garbageMp4), "not an MP4");
        assertRefused(service, new IngestRequest(file("notes.txt", "hello".getBytes()), null, Kind.CONTINUOUS, 0),
            "declare its bit rate");
        assertRefused(service, new IngestRequest(file("x.txt", "x".getBytes()), "/../etc/passwd", null, 0),
            "cannot climb");
        assertEquals(0, catalog.size());
        assertNoTempFiles();
    }

    @Test
    void aFileItCannotIndexStreamsAtADeclaredBitRateInOneRoundFragments() throws Exception {
        IngestService service = service(2);
        byte[] bytes = random(1_000_000, 4);

        MediaObject object = service.ingest(new IngestRequest(file("talk.bin", bytes), null, Kind.CONTINUOUS,
            2_000_000), copied -> { });

        assertEquals(Kind.CONTINUOUS, object.kind());
        assertEquals(4, object.media().fragments().size(), "250000 bytes a second: four one-second fragments");
        assertEquals(250_000, object.media().fragments().get(0).length());
        assertEquals(4_000_000_000L, object.media().durationNs());
    }

    @Test
    void recoveryRemovesIngestsInProgressAndFilesNoEntryNames() throws Exception {
        IngestService service = service(2);
        MediaObject kept = service.ingest(IngestRequest.of(file("kept.txt", "kept".getBytes())), c -> { });
        Path disk0 = temp.resolve("disk0");
        Files.write(disk0.resolve("rondo/tmp/77.part"), new byte[10]);
        Files.createDirectories(disk0.resolve("rondo/objects/78"));
        Files.write(disk0.resolve("rondo/objects/78/stripe-0.webm"), new byte[10]);
        Files.write(disk0.resolve("rondo/objects/79.txt"), new byte[10]);

        int removed = service.recover();

        assertEquals(4, removed, "the temp file, the orphan folder with its file, and the orphan file");
        assertTrue(Files.exists(store(service).pathOf(kept.placement().files().get(0))), "catalogued files stay");
        assertEquals(1, countObjectFiles());
    }

    @Test
    void whatAStreamedFileLeavesOutIsNoted() throws Exception {
        IngestService service = service(1);
        List<String> notes = new java.util.ArrayList<>();

        MediaObject song = service.ingest(IngestRequest.of(Path.of("src/test/resources/media/cbr-id3.mp3")), c -> { },
            notes::add);

        assertEquals(Kind.CONTINUOUS, song.kind());
        assertEquals(List.of("/cbr-id3.mp3 is streamed: its ID3 tags are not in the stored copy, which holds the audio"
            + " frames only: title \"Rondo test tone\", its TSSE frame"), notes);
    }

    private static void assertRefused(IngestService service, IngestRequest request, String reason) {
        IngestException refused = assertThrows(IngestException.class, () -> service.ingest(request, c -> { }));
        assertTrue(refused.getMessage().contains(reason), "expected '" + reason + "' in: " + refused.getMessage());
    }

    private long countObjectFiles() throws IOException {
        try (Stream<Path> files = Files.walk(temp)) {
            return files.filter(path -> path.toString().contains("/rondo/objects/") && Files.isRegularFile(path))
                .count();
        }
    }

    private void assertNoTempFiles() throws IOException {
        try (Stream<Path> files = Files.walk(temp)) {
            assertFalse(files.anyMatch(path -> path.toString().contains("/rondo/tmp/") && Files.isRegularFile(path)),
                "no ingest left a temp file");
        }
    }

    /** A WebM clip from the media test resources. */
    static Path someClip() throws IOException {
        try (Stream<Path> clips = Files.list(Path.of("src/test/resources/media"))) {
            return clips.filter(path -> path.toString().endsWith(".webm")).sorted().findFirst()
                .orElseThrow(() -> new IllegalStateException("no WebM clip in src/test/resources/media"));
        }
    }

    /** What ingest stores for a clip: the media remuxed so that each round is one fragment. */
    private static byte[] storedCopy(Path clip) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        Preparation prepared = MediaIndexers.prepare(clip, 1_000_000_000L);
        try (StoredMedia media = ((Preparation.Continuous) prepared).media()) {
            media.writeAll(java.nio.channels.Channels.newChannel(out));
        }
        return out.toByteArray();
    }
}
