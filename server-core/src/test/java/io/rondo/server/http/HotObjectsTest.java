package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hot objects served from memory: no disk read the second time, the same bytes, never stale. */
class HotObjectsTest {

    private static final int MAX_OBJECT = 64 * 1024;

    @TempDir
    static Path temp;

    private static Library library;
    private static DiskRuntime disks;
    private static HotObjects hot;
    private static HttpServer server;
    private static final AtomicLong READS = new AtomicLong();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void serve() throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"));
        disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk())
                .device(device -> (request, task, scratch) -> {
                    READS.incrementAndGet();
                    return device.read(request, task, scratch);
                })
                .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock())).start();
        hot = new HotObjects(MAX_OBJECT, HttpSettings.DEFAULT_HOT_OBJECTS_TOTAL);
        server = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks, null, hot);
    }

    @AfterAll
    static void stop() {
        server.close();
        disks.close();
        library.close();
    }

    private static byte[] ingest(String name, int size, long seed) throws Exception {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        Path file = Files.write(temp.resolve("source-" + seed + ".bin"), bytes);
        library.ingest().ingest(new IngestRequest(file, name, null, 0), c -> { });
        return bytes;
    }

    private static HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        return get(server, path, headers);
    }

    private static HttpResponse<byte[]> get(HttpServer from, String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + from.address().getPort() + path)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void theSecondGetOfASmallObjectReadsNoDiskAndIsByteIdentical() throws Exception {
        byte[] bytes = ingest("/hot/small.bin", 50_000, 1);
        long hits = hot.hits();
        long fromMemory = hot.bytesServedFromMemory();

        long before = READS.get();
        HttpResponse<byte[]> first = get("/hot/small.bin");
        long firstReads = READS.get() - before;
        before = READS.get();
        HttpResponse<byte[]> second = get("/hot/small.bin");
        long secondReads = READS.get() - before;

        assertEquals(200, first.statusCode());
        assertArrayEquals(bytes, first.body());
        assertEquals(1, firstReads, "a miss reads the object whole: one D-request");
        assertEquals(200, second.statusCode());
        assertArrayEquals(bytes, second.body(), "the same bytes from memory");
        assertEquals(0, secondReads, "a hit reads no disk");
        assertEquals(first.headers().map(), second.headers().map(), "the same headers from memory");
        assertEquals(hits + 1, hot.hits());
        assertEquals(fromMemory + bytes.length, hot.bytesServedFromMemory());
    }

    @Test
    void rangesAndMultipartRangesComeRightFromMemory() throws Exception {
        byte[] bytes = ingest("/hot/ranged.bin", 40_000, 2);
        long fromMemory = hot.bytesServedFromMemory();
        long beforeMiss = READS.get();
        HttpResponse<byte[]> missRange = get("/hot/ranged.bin", "Range", "bytes=100-199");
        assertEquals(1, READS.get() - beforeMiss, "a range on a miss reads the object whole, once");
        assertEquals(206, missRange.statusCode());
        assertArrayEquals(Arrays.copyOfRange(bytes, 100, 200), missRange.body());

        long before = READS.get();
        HttpResponse<byte[]> range = get("/hot/ranged.bin", "Range", "bytes=30000-39999");
        HttpResponse<byte[]> suffix = get("/hot/ranged.bin", "Range", "bytes=-7");
        HttpResponse<byte[]> multipart = get("/hot/ranged.bin", "Range", "bytes=0-9,-5");

        assertEquals(0, READS.get() - before, "ranges of a cached object read no disk");
        assertEquals(206, range.statusCode());
        assertEquals("bytes 30000-39999/40000", range.headers().firstValue("content-range").orElseThrow());
        assertArrayEquals(Arrays.copyOfRange(bytes, 30_000, 40_000), range.body());
        assertArrayEquals(Arrays.copyOfRange(bytes, 39_993, 40_000), suffix.body());
        String type = multipart.headers().firstValue("content-type").orElseThrow();
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        String boundary = type.substring(type.indexOf('=') + 1);
        String body = new String(multipart.body(), StandardCharsets.ISO_8859_1);
        assertTrue(body.contains("Content-Range: bytes 0-9/40000\r\n\r\n"
            + new String(bytes, 0, 10, StandardCharsets.ISO_8859_1)), body);
        assertTrue(body.endsWith("Content-Range: bytes 39995-39999/40000\r\n\r\n"
            + new String(bytes, 39_995, 5, StandardCharsets.ISO_8859_1) + "\r\n--" + boundary + "--\r\n"));
        assertEquals(body.length(), Integer.parseInt(multipart.headers().firstValue("content-length").orElseThrow()));
        assertEquals(fromMemory + 10_000 + 7 + 15, hot.bytesServedFromMemory(), "object bytes, not multipart headers");
    }

    @Test
    void anObjectAboveTheLimitIsNeverCached() throws Exception {
        byte[] bytes = ingest("/hot/large.bin", MAX_OBJECT + 1, 3);
        long misses = hot.misses();
        long hits = hot.hits();

        for (int i = 0; i < 3; i++) {
            long before = READS.get();
            HttpResponse<byte[]> response = get("/hot/large.bin");
            assertArrayEquals(bytes, response.body());
            assertTrue(READS.get() - before >= 1, "read from disk every time");
        }
        assertEquals(misses, hot.misses(), "not even looked up");
        assertEquals(hits, hot.hits());
    }

    @Test
    void theCacheNeverHoldsMoreThanItsWeight() throws Exception {
        long maxTotal = 200 * 1024;
        HotObjects small = new HotObjects(MAX_OBJECT, maxTotal);
        try (HttpServer smallServer = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(),
            disks, null, small)) {
            for (int i = 0; i < 8; i++) {
                byte[] bytes = ingest("/hot/many-" + i + ".bin", 60_000, 100 + i);
                for (int again = 0; again < 3; again++) {
                    assertArrayEquals(bytes, get(smallServer, "/hot/many-" + i + ".bin").body());
                    assertTrue(small.cachedBytes() <= maxTotal, small.cachedBytes() + " bytes cached");
                }
            }
            assertTrue(small.cachedObjects() <= maxTotal / 60_000, small.cachedObjects() + " objects cached");
            assertTrue(small.cachedBytes() > 0);
            assertTrue(small.hits() > 0, "objects asked for again were admitted");
        }
        assertEquals(0, small.cachedBytes(), "a stopped server's cache is emptied, its memory freed");
    }

    @Test
    void aPutBeyondTheWeightEvictsAtOnce() {
        HotObjects cache = new HotObjects(1000, 2500);
        for (int i = 0; i < 20; i++) {
            cache.put(new MediaObject(i, "/o" + i, Kind.DISCRETE, "application/octet-stream", 1000, "\"e" + i + "\"",
                0, 0, null, null), Unpooled.directBuffer(1000, 1000).writeZero(1000));
            assertTrue(cache.cachedBytes() <= 2500, cache.cachedBytes() + " bytes cached");
        }
        MediaObject tooBig = new MediaObject(99, "/big", Kind.DISCRETE, "application/octet-stream", 1001, "\"b\"",
            0, 0, null, null);
        cache.put(tooBig, Unpooled.directBuffer(1001, 1001).writeZero(1001));
        assertNull(cache.lookUp(tooBig));
        cache.close();
    }

    /** D-requests the disks have answered: what a read through the scheduler leaves behind. */
    private static long dRequests() {
        return disks.discreteResponseTimes().count();
    }

    @Test
    void anObjectLargerThanOneReadIsReadOnceThenEveryPartOfItComesFromMemory() throws Exception {
        HotObjects large = new HotObjects();
        byte[] bytes = ingest("/hot/large-cached.bin", 300_000, 8);
        try (HttpServer largeServer = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(),
            disks, null, large)) {
            long before = dRequests();
            HttpResponse<byte[]> first = get(largeServer, "/hot/large-cached.bin");
            assertArrayEquals(bytes, first.body());
            assertEquals(2, dRequests() - before, "a miss reads the object through the scheduler: two 256 KiB reads");
            assertEquals(300_000, large.cachedBytes());

            before = dRequests();
            long readsBefore = READS.get();
            HttpResponse<byte[]> whole = get(largeServer, "/hot/large-cached.bin");
            HttpResponse<byte[]> acrossReads = get(largeServer, "/hot/large-cached.bin", "Range",
                "bytes=262000-262300");
            HttpResponse<byte[]> multipart = get(largeServer, "/hot/large-cached.bin", "Range",
                "bytes=0-9,262140-262150,-5");

            assertEquals(0, dRequests() - before, "hits send no D-request");
            assertEquals(0, READS.get() - readsBefore, "and read no disk");
            assertArrayEquals(bytes, whole.body());
            assertEquals(first.headers().map(), whole.headers().map(), "the same headers from memory");
            assertEquals(206, acrossReads.statusCode());
            assertEquals("bytes 262000-262300/300000", acrossReads.headers().firstValue("content-range")
                .orElseThrow());
            assertArrayEquals(Arrays.copyOfRange(bytes, 262_000, 262_301), acrossReads.body());
            String body = new String(multipart.body(), StandardCharsets.ISO_8859_1);
            assertTrue(body.contains("Content-Range: bytes 262140-262150/300000\r\n\r\n"
                + new String(bytes, 262_140, 11, StandardCharsets.ISO_8859_1) + "\r\n"), "the middle part");
            assertTrue(body.contains("Content-Range: bytes 299995-299999/300000\r\n\r\n"
                + new String(bytes, 299_995, 5, StandardCharsets.ISO_8859_1) + "\r\n"), "the suffix");
            assertEquals(300_000 + 301 + 10 + 11 + 5, large.bytesServedFromMemory());
        }
    }

    @Test
    void aSmallRangeOfALargeObjectReadsOnlyThatRangeUntilTheWholeIsAskedFor() throws Exception {
        HotObjects large = new HotObjects();
        byte[] bytes = ingest("/hot/large-ranged.bin", 600_000, 9);
        try (HttpServer largeServer = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(),
            disks, null, large)) {
            long before = dRequests();
            HttpResponse<byte[]> range = get(largeServer, "/hot/large-ranged.bin", "Range", "bytes=500000-500099");
            assertEquals(206, range.statusCode());
            assertArrayEquals(Arrays.copyOfRange(bytes, 500_000, 500_100), range.body());
            assertEquals(1, dRequests() - before, "one read of the range, not three of the object");
            assertEquals(0, large.cachedObjects(), "a range of an object above one read does not fill the cache");

            before = dRequests();
            assertArrayEquals(bytes, get(largeServer, "/hot/large-ranged.bin").body());
            assertEquals(3, dRequests() - before, "the whole object: three reads, and cached");

            before = dRequests();
            HttpResponse<byte[]> again = get(largeServer, "/hot/large-ranged.bin", "Range", "bytes=500000-500099");
            assertArrayEquals(Arrays.copyOfRange(bytes, 500_000, 500_100), again.body());
            assertEquals(0, dRequests() - before, "now from memory");
        }
    }

    @Test
    void theByteBudgetHoldsWithObjectsLargerThanTheOldLimit() throws Exception {
        long maxTotal = 700_000;
        HotObjects budget = new HotObjects(HttpSettings.DEFAULT_HOT_OBJECT_MAX, maxTotal);
        try (HttpServer budgetServer = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(),
            disks, null, budget)) {
            for (int i = 0; i < 6; i++) {
                byte[] bytes = ingest("/hot/budget-" + i + ".bin", 200_000, 200 + i);
                for (int again = 0; again < 3; again++) {
                    assertArrayEquals(bytes, get(budgetServer, "/hot/budget-" + i + ".bin").body());
                    assertTrue(budget.cachedBytes() <= maxTotal, budget.cachedBytes() + " bytes cached");
                }
            }
            assertTrue(budget.cachedObjects() >= 1 && budget.cachedObjects() <= 3,
                budget.cachedObjects() + " cached");
            assertTrue(budget.hits() > 0, "objects asked for again were admitted");
        }
    }

    @Test
    void anEntryTheCacheLetsGoIsFreedOnlyOnceTheLastAnswerWritingItIsDone() {
        HotObjects cache = new HotObjects(1000, 2000);
        MediaObject object = discrete(1, 1000);
        ByteBuf old = Unpooled.directBuffer(1000, 1000).writeZero(1000);
        cache.put(object, old);
        ByteBuf answering = cache.lookUp(object);
        assertEquals(2, old.refCnt(), "the cache's reference and the answer's");

        ByteBuf fresh = Unpooled.directBuffer(1000, 1000).writeZero(1000);
        cache.put(object, fresh);
        assertEquals(1, old.refCnt(), "replaced: still the answer's to write");
        assertEquals(1000, answering.readableBytes());
        answering.release();
        assertEquals(0, old.refCnt(), "freed once written");

        ByteBuf tooLarge = Unpooled.directBuffer(1001, 1001).writeZero(1001);
        cache.put(discrete(2, 1001), tooLarge);
        assertEquals(0, tooLarge.refCnt(), "an object above the limit is not kept");
        Map<Long, ByteBuf> buffers = new HashMap<>(Map.of(1L, fresh));
        for (long id = 3; id <= 5; id++) {
            buffers.put(id, Unpooled.directBuffer(1000, 1000).writeZero(1000));
            cache.put(discrete(id, 1000), buffers.get(id));
        }
        assertTrue(cache.cachedObjects() <= 2, cache.cachedObjects() + " cached: the budget holds two");
        buffers.forEach((id, bytes) -> {
            ByteBuf hit = cache.lookUp(discrete(id, 1000));
            assertEquals(hit != null ? 2 : 0, bytes.refCnt(), "object " + id + ": kept, or freed when evicted");
            if (hit != null) {
                hit.release();
            }
        });
        cache.close();
        buffers.forEach((id, bytes) -> assertEquals(0, bytes.refCnt(), "object " + id + ": freed at close"));
    }

    @Test
    void oneFillAnObjectAtATime() {
        HotObjects cache = new HotObjects(1000, 2000);
        MediaObject object = discrete(7, 1000);
        assertTrue(cache.claimFill(object), "the first miss fills");
        assertFalse(cache.claimFill(object), "a miss meanwhile is sent its bytes without a buffer of its own");
        assertTrue(cache.claimFill(discrete(8, 1000)), "another object fills at the same time");
        cache.abandonFill(object);
        assertTrue(cache.claimFill(object), "a fill given up: the next miss fills");
        cache.put(object, Unpooled.directBuffer(1000, 1000).writeZero(1000));
        assertTrue(cache.claimFill(object), "a put ends the claim");
        cache.close();
    }

    private static MediaObject discrete(long id, long size) {
        return new MediaObject(id, "/o" + id, Kind.DISCRETE, "application/octet-stream", size, "\"e" + id + "\"", 0, 0,
            null, null);
    }

    @Test
    void anObjectReplacedUnderTheSameNameIsServedFresh() throws Exception {
        byte[] old = ingest("/hot/replaced.txt", 20_000, 4);
        HttpResponse<byte[]> first = get("/hot/replaced.txt");
        HttpResponse<byte[]> cached = get("/hot/replaced.txt");
        assertArrayEquals(old, cached.body());

        library.directory().delete("/hot/replaced.txt");
        byte[] fresh = ingest("/hot/replaced.txt", 20_000, 5);
        long before = READS.get();
        HttpResponse<byte[]> after = get("/hot/replaced.txt");

        assertEquals(200, after.statusCode());
        assertArrayEquals(fresh, after.body(), "the new content, not the cached old one");
        assertNotEquals(first.headers().firstValue("etag").orElseThrow(),
            after.headers().firstValue("etag").orElseThrow());
        assertEquals(1, READS.get() - before, "read from disk, then cached");
        assertArrayEquals(fresh, get("/hot/replaced.txt").body());
    }

    @Test
    void dResponseTimesCountEveryDiskRead() throws Exception {
        byte[] small = ingest("/hot/timed.bin", 30_000, 6);
        byte[] large = ingest("/hot/large-timed.bin", 300_000, 7);
        long countBefore = disks.discreteResponseTimes().count();
        long readsBefore = READS.get();
        assertArrayEquals(small, get("/hot/timed.bin").body());
        assertArrayEquals(large, get("/hot/large-timed.bin").body());

        DiskRuntime.ResponseTimeSummary summary = disks.discreteResponseTimes();
        long reads = READS.get() - readsBefore;
        assertEquals(3, reads, "one read for the small object, two 256 KiB chunks for the large one");
        assertEquals(countBefore + reads, summary.count());
        assertTrue(summary.meanMs() > 0 && summary.meanMs() < 5_000, summary.toString());
        assertTrue(summary.p95Ms() <= summary.p99Ms() && summary.p99Ms() <= summary.maxMs(), summary.toString());
        assertTrue(summary.meanMs() <= summary.maxMs() * 1.001, summary.toString());
    }
}
