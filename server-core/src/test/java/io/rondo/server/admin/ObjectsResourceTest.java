package io.rondo.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.MediaObject;
import io.rondo.server.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static io.rondo.server.admin.AdminFixture.ADMIN;
import static io.rondo.server.admin.AdminFixture.READ;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The objects resource through a real admin port, wired as {@code rondo serve} wires it over a
 * library on an emulated paper disk ({@link AdminFixture}), with {@link java.net.http.HttpClient} as
 * the operator's client and every response held to the OpenAPI document.
 */
class ObjectsResourceTest {

    private static final ClientProfile PROFILE = new ClientProfile(4L << 20, 8L << 20);
    private static final long MIB = 1L << 20;

    @TempDir
    Path temp;

    private AdminFixture server;

    /** The admin port as rondo serve wires it, over a library holding /clip.webm and /t.txt. */
    private void serve(long maxUploadBytes) throws Exception {
        server = AdminFixture.start(temp, maxUploadBytes);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void objectsAreListedByNameWithAPrefixAPageAtATime() throws Exception {
        serve(MIB);
        for (String name : List.of("/videos/c.txt", "/music/x.txt", "/videos/a.txt", "/videos2.txt",
            "/videos/b.txt")) {
            ingest(name, name.getBytes(StandardCharsets.UTF_8));
        }

        JsonNode first = json(send("GET", "/api/v1/objects?prefix=/videos/&limit=2", READ), 200);
        assertEquals(List.of("/videos/a.txt", "/videos/b.txt"), names(first));
        assertTrue(first.get("next").isTextual(), first.toString());
        JsonNode second = json(send("GET", "/api/v1/objects?prefix=/videos/&limit=2&cursor="
            + first.get("next").textValue(), READ), 200);
        assertEquals(List.of("/videos/c.txt"), names(second));
        assertTrue(second.get("next").isNull(), "the last page has no next: " + second);

        JsonNode all = json(send("GET", "/api/v1/objects", READ), 200);
        assertEquals(List.of("/clip.webm", "/music/x.txt", "/t.txt", "/videos/a.txt", "/videos/b.txt",
            "/videos/c.txt", "/videos2.txt"), names(all));
        JsonNode item = first.get("items").get(0);
        assertEquals("discrete", item.get("kind").textValue());
        assertTrue(item.get("mimeType").textValue().startsWith("text/plain"), item.toString());
        assertEquals("/videos/a.txt".length(), item.get("size").longValue());
        assertTrue(item.get("etag").textValue().matches("\"[0-9a-f]+\""), item.toString());
        assertEquals(server.library.store().disks().get(0).name(), item.get("disks").get(0).textValue());
        assertTrue(item.get("fragments").isNull() && item.get("durationSeconds").isNull()
            && item.get("bitsPerSecond").isNull(), "no media fields for discrete data: " + item);

        assertEquals(3, json(send("GET", "/api/v1/objects?prefix=/videos/&scope=node", READ), 200).get("items")
            .size(), "a single server's own objects are the whole library");
        for (String bad : List.of("limit=0", "limit=501", "limit=ten", "cursor=%21%21", "cursor=YWJj",
            "prefix=videos/", "scope=everywhere")) {
            HttpResponse<String> refused = send("GET", "/api/v1/objects?" + bad, READ);
            assertEquals(bad.substring(0, bad.indexOf('=')), problem(refused, 400).get("field").textValue(), bad);
        }
    }

    @Test
    void anObjectIsReadByNameAndAMissingOneIs404() throws Exception {
        serve(MIB);
        ingest("/docs/read me.txt", "hello".getBytes(StandardCharsets.UTF_8));
        ingest("/docs/a+b.txt", "plus".getBytes(StandardCharsets.UTF_8));

        JsonNode object = json(send("GET", "/api/v1/objects/docs/read%20me.txt", READ), 200);
        assertEquals("/docs/read me.txt", object.get("name").textValue());
        assertEquals(5, object.get("size").longValue());
        assertEquals(0, object.get("streams").intValue());
        assertEquals("/docs/a+b.txt", json(send("GET", "/api/v1/objects/docs/a+b.txt", READ), 200).get("name")
            .textValue(), "a '+' in a path is a plus, as on the HTTP port");

        assertTrue(problem(send("GET", "/api/v1/objects/docs/missing.txt", READ), 404).get("detail")
            .textValue().contains("/docs/missing.txt"));
        assertTrue(problem(send("GET", "/api/v1/objects/docs/a%01b.txt", READ), 404).get("detail")
            .textValue().contains("control character"), "a name no object can have is found by none, and why");
    }

    @Test
    void anUploadIsStoredAndServedLikeAnIngestedFile() throws Exception {
        serve(MIB);
        byte[] bytes = new byte[200_000];
        new Random(7).nextBytes(bytes);

        HttpResponse<String> created = send("PUT", "/api/v1/objects/docs/random%20bytes+100%25.bin", ADMIN,
            HttpRequest.BodyPublishers.ofByteArray(bytes));

        JsonNode object = json(created, 201);
        assertEquals("/docs/random bytes+100%.bin", object.get("name").textValue());
        assertEquals("discrete", object.get("kind").textValue());
        assertEquals(bytes.length, object.get("size").longValue());
        String location = created.headers().firstValue("Location").orElseThrow();
        assertEquals("/api/v1/objects/docs/random%20bytes%2B100%25.bin", location);
        assertEquals(object, json(send("GET", location, READ), 200), "the Location names the object");
        HttpResponse<byte[]> served;
        try (HttpServer http = httpPort()) {
            served = server.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.address().getPort()
                + "/docs/random%20bytes+100%25.bin")).build(), HttpResponse.BodyHandlers.ofByteArray());
        }
        assertEquals(200, served.statusCode());
        assertArrayEquals(bytes, served.body(), "the HTTP port serves the uploaded bytes");
        assertEquals(object.get("etag").textValue(), served.headers().firstValue("ETag").orElseThrow());
        assertEquals(List.of(), uploadsLeft(), "the upload's temporary file is gone");
    }

    @Test
    void anUploadedClipIsRemuxedIntoFragmentsAsRondoIngestDoes() throws Exception {
        serve(4 * MIB);
        MediaObject ingested = server.library.store().catalog().byName("/clip.webm").orElseThrow();

        JsonNode uploaded = json(send("PUT", "/api/v1/objects/videos/clip.webm", ADMIN,
            HttpRequest.BodyPublishers.ofByteArray(clip())), 201);

        assertEquals("continuous", uploaded.get("kind").textValue());
        assertEquals("video/webm", uploaded.get("mimeType").textValue());
        assertEquals(ingested.media().fragments().size(), uploaded.get("fragments").intValue());
        assertTrue(uploaded.get("fragments").intValue() > 1, uploaded.toString());
        assertEquals(ingested.media().durationNs() / 1e9, uploaded.get("durationSeconds").doubleValue(), 1e-9);
        assertEquals(ingested.media().averageBitRate(), uploaded.get("bitsPerSecond").longValue());
        assertEquals(ingested.etag(), uploaded.get("etag").textValue(), "the same stored bytes as rondo ingest's");
        try (StreamClient player = StreamClient.connect("127.0.0.1", server.streams.address().getPort())) {
            player.open("/videos/clip.webm", 0, PROFILE);
            assertEquals(0, player.nextData().fragmentIndex(), "the uploaded clip streams");
        }
    }

    /** As with rondo ingest --kind: media may be kept discrete; and what ingest notes comes back with the object. */
    @Test
    void anUploadMayNameItsKindAndHearsIngestsNotes() throws Exception {
        serve(4 * MIB);
        byte[] emptyMp4 = ByteBuffer.allocate(28).putInt(20).put("ftypisom".getBytes(StandardCharsets.US_ASCII))
            .putInt(0).put("isom".getBytes(StandardCharsets.US_ASCII)).putInt(8)
            .put("moov".getBytes(StandardCharsets.US_ASCII)).array();

        HttpResponse<String> noted = send("PUT", "/api/v1/objects/empty.mp4", ADMIN,
            HttpRequest.BodyPublishers.ofByteArray(emptyMp4));
        JsonNode kept = json(send("PUT", "/api/v1/objects/download.webm?kind=discrete", ADMIN,
            HttpRequest.BodyPublishers.ofByteArray(clip())), 201);

        assertEquals("discrete", json(noted, 201).get("kind").textValue());
        assertTrue(noted.headers().firstValue(ObjectsResource.NOTE_HEADER).orElseThrow()
            .contains("no audio or video samples"), noted.headers().toString());
        assertEquals("discrete", kept.get("kind").textValue());
        assertEquals("video/webm", kept.get("mimeType").textValue());
        for (String bad : List.of("kind=sideways", "bitrate=fast")) {
            HttpResponse<String> refused = send("PUT", "/api/v1/objects/refused.webm?" + bad, ADMIN,
                HttpRequest.BodyPublishers.ofByteArray(clip()));
            assertEquals(bad.substring(0, bad.indexOf('=')), problem(refused, 400).get("field").textValue());
        }
        HttpResponse<String> notMedia = send("PUT", "/api/v1/objects/text.webm", ADMIN,
            HttpRequest.BodyPublishers.ofString("plain text"));
        String detail = problem(notMedia, 400).get("detail").textValue();
        assertTrue(detail.startsWith("the upload is named .webm but is not a WebM"), detail);
        assertEquals(List.of("/clip.webm", "/download.webm", "/empty.mp4", "/t.txt"), catalogNames());
    }

    @Test
    void aTakenNameIs409BeforeAnyByteIsWritten() throws Exception {
        serve(MIB);
        MediaObject first = server.library.store().catalog().byName("/t.txt").orElseThrow();

        HttpResponse<String> refused = send("PUT", "/api/v1/objects/t.txt", ADMIN,
            HttpRequest.BodyPublishers.ofString("second"));

        assertTrue(problem(refused, 409).get("detail").textValue().contains("/t.txt"));
        assertEquals(first, server.library.store().catalog().byName("/t.txt").orElseThrow(), "the object is untouched");
        assertEquals(List.of(), uploadsLeft());
    }

    @Test
    void namesTheLibraryRefusesAre400() throws Exception {
        serve(MIB);
        ingest("/player/index.html", "<p>the player</p>".getBytes(StandardCharsets.UTF_8));

        for (String name : List.of("bad%01name.txt", "a/%2E%2E/b.txt", "player/x.js")) {
            HttpResponse<String> refused = send("PUT", "/api/v1/objects/" + name, ADMIN,
                HttpRequest.BodyPublishers.ofString("x"));
            assertEquals("name", problem(refused, 400).get("field").textValue(), name);
        }
        assertEquals("name", problem(send("DELETE", "/api/v1/objects/player/index.html", ADMIN), 400)
            .get("field").textValue());
        assertEquals("name", problem(move("player/index.html", "{\"to\":\"/index.html\"}"), 400).get("field")
            .textValue());
        assertEquals("to", problem(move("t.txt", "{\"to\":\"/player/t.txt\"}"), 400).get("field").textValue());
        assertTrue(server.library.store().catalog().byName("/player/index.html").isPresent());
        assertEquals(List.of(), uploadsLeft());
    }

    @Test
    void anUploadPastTheLimitIs413AndLeavesNothing() throws Exception {
        serve(64 * 1024);

        HttpResponse<String> declared = send("PUT", "/api/v1/objects/declared.bin", ADMIN,
            HttpRequest.BodyPublishers.ofByteArray(new byte[64 * 1024 + 1]));
        problem(declared, 413);

        HttpResponse<String> streamed = send("PUT", "/api/v1/objects/streamed.bin", ADMIN,
            HttpRequest.BodyPublishers.ofInputStream(() -> new GeneratedBytes(MIB)));
        problem(streamed, 413);

        assertEquals(List.of("/clip.webm", "/t.txt"), catalogNames());
        await("the streamed upload's temporary file is deleted").atMost(Duration.ofSeconds(5))
            .until(() -> uploadsLeft().isEmpty());
    }

    @Test
    void anUploadTheClientAbandonsLeavesNoFileAndNoObject() throws Exception {
        serve(16 * MIB);
        try (Socket socket = new Socket("127.0.0.1", server.server.address().getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /api/v1/objects/cut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + ADMIN + "\r\nContent-Length: " + 8 * MIB + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            new GeneratedBytes(MIB).transferTo(out);
            out.flush();
            await("the upload is being written").atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> uploadsLeft().size() == 1 && Files.size(uploadsLeft().get(0)) > 0);
            assertTrue(problem(send("PUT", "/api/v1/objects/cut.bin", ADMIN, HttpRequest.BodyPublishers.ofString(
                "other")), 409).get("detail").textValue().contains("being uploaded"), "one upload to a name at a time");
        }

        await("the abandoned upload's file is deleted").atMost(Duration.ofSeconds(10))
            .until(() -> uploadsLeft().isEmpty());
        problem(send("GET", "/api/v1/objects/cut.bin", READ), 404);
        json(send("PUT", "/api/v1/objects/cut.bin", ADMIN, HttpRequest.BodyPublishers.ofString("whole")), 201);
    }

    /** curl sends a file over 1 MiB this way: the head with Expect: 100-continue, the body only after 100 Continue. */
    @Test
    void anUploadWhoseBodyWaitsFor100ContinueIsTaken() throws Exception {
        serve(4 * MIB);
        try (Socket socket = new Socket("127.0.0.1", server.server.address().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("PUT /api/v1/objects/continued.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + ADMIN + "\r\nContent-Length: " + 2 * MIB + "\r\nExpect: 100-continue\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            assertTrue(head(in).startsWith("HTTP/1.1 100 Continue"));
            new GeneratedBytes(2 * MIB).transferTo(out);
            assertTrue(head(in).startsWith("HTTP/1.1 201 Created"));
        }
        assertEquals(2 * MIB, json(send("GET", "/api/v1/objects/continued.bin", READ), 200).get("size")
            .longValue());
    }

    @Test
    void uploadsPastTheMostAtOnceAre503BusyUntilOneEnds() throws Exception {
        serve(4 * MIB);
        List<Socket> waiting = new ArrayList<>();
        try {
            for (int i = 0; i < UploadSlots.MAX_UPLOADS; i++) {
                Socket socket = new Socket("127.0.0.1", server.server.address().getPort());
                waiting.add(socket);
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(("PUT /api/v1/objects/waiting-" + i + ".bin HTTP/1.1\r\nHost: "
                    + "127.0.0.1\r\nAuthorization: Bearer " + ADMIN + "\r\nContent-Length: " + MIB
                    + "\r\nExpect: 100-continue\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                assertTrue(head(socket.getInputStream()).startsWith("HTTP/1.1 100 Continue"), "upload " + i);
            }

            HttpResponse<String> refused = send("PUT", "/api/v1/objects/one-more.bin", ADMIN,
                HttpRequest.BodyPublishers.ofString("more"));
            assertEquals("busy", problem(refused, 503).get("code").textValue());
            assertEquals("1", refused.headers().firstValue("Retry-After").orElseThrow());
        } finally {
            for (Socket socket : waiting) {
                socket.close();
            }
        }

        await("the abandoned uploads end").atMost(Duration.ofSeconds(10)).until(() -> send("PUT",
            "/api/v1/objects/one-more.bin", ADMIN, HttpRequest.BodyPublishers.ofString("more")).statusCode() == 201);
        problem(send("GET", "/api/v1/objects/waiting-0.bin", READ), 404);
    }

    @Test
    void uploadsACrashLeftAreRemovedWhenTheResourceIsBuilt() throws Exception {
        Path uploads = Files.createDirectories(temp.resolve("data").resolve(UploadFolder.PATH));
        Files.write(uploads.resolve("upload-1.part"), new byte[1000]);

        serve(MIB);

        assertEquals(List.of(), uploadsLeft());
    }

    @Test
    void deleteRemovesTheObject() throws Exception {
        serve(MIB);
        ingest("/old.txt", "old".getBytes(StandardCharsets.UTF_8));

        HttpResponse<String> deleted = send("DELETE", "/api/v1/objects/old.txt", ADMIN);

        assertEquals(204, deleted.statusCode());
        assertEquals("", deleted.body());
        problem(send("GET", "/api/v1/objects/old.txt", READ), 404);
        problem(send("DELETE", "/api/v1/objects/old.txt", ADMIN), 404);
        try (HttpServer http = httpPort()) {
            assertEquals(404, server.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + http.address().getPort() + "/old.txt")).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode(), "the HTTP port no longer serves it");
        }
    }

    // As on a Unix file system: a delete never waits; a stream plays on from the files it has open.
    @Test
    void aStreamedObjectIsDeletedAtOnceAndItsStreamPlaysOnToItsEnd() throws Exception {
        serve(MIB);
        Path file = server.library.store().pathOf(server.library.store().catalog().byName("/clip.webm").orElseThrow()
            .placement().files().get(0));
        try (StreamClient player = StreamClient.connect("127.0.0.1", server.streams.address().getPort())) {
            player.open("/clip.webm", 0, PROFILE);
            assertEquals(0, player.nextData().fragmentIndex());
            assertEquals(1, json(send("GET", "/api/v1/objects/clip.webm", READ), 200).get("streams")
                .intValue());

            assertEquals(204, send("DELETE", "/api/v1/objects/clip.webm", ADMIN).statusCode());
            assertFalse(server.library.store().catalog().byName("/clip.webm").isPresent(), "its name is gone at once");
            assertFalse(Files.exists(file), "and its file");
            long fragments = 1;
            while (player.nextData() != null) {
                fragments++;
            }
            assertTrue(fragments > 1, "the stream played on to its END, " + fragments + " fragments");
        }
    }

    @Test
    void aForcedDeleteEndsTheObjectsStreams() throws Exception {
        serve(MIB);
        try (StreamClient player = StreamClient.connect("127.0.0.1", server.streams.address().getPort())) {
            player.open("/clip.webm", 0, PROFILE);
            assertEquals(0, player.nextData().fragmentIndex());

            assertEquals(204, send("DELETE", "/api/v1/objects/clip.webm?force=true", ADMIN).statusCode());
            StreamErrorException ended = assertThrows(StreamErrorException.class, () -> {
                while (player.nextData() != null) {
                    Thread.onSpinWait();
                }
            });
            assertEquals(ErrorCode.ENDED_BY_OPERATOR.code(), ended.error().code(), ended.getMessage());
        }
        assertFalse(server.library.store().catalog().byName("/clip.webm").isPresent());
    }

    @Test
    void moveRenamesAndRefusesATakenOrBadName() throws Exception {
        serve(MIB);
        MediaObject original = ingest("/a.txt", "a".getBytes(StandardCharsets.UTF_8));
        ingest("/b.txt", "b".getBytes(StandardCharsets.UTF_8));

        JsonNode moved = json(move("a.txt", "{\"to\":\"/archive/a.txt\"}"), 200);

        assertEquals("/archive/a.txt", moved.get("name").textValue());
        assertEquals(original.etag(), moved.get("etag").textValue());
        problem(send("GET", "/api/v1/objects/a.txt", READ), 404);
        json(send("GET", "/api/v1/objects/archive/a.txt", READ), 200);
        problem(move("archive/a.txt", "{\"to\":\"/b.txt\"}"), 409);
        problem(move("missing.txt", "{\"to\":\"/c.txt\"}"), 404);
        for (String body : List.of("", "not json", "[\"/c.txt\"]", "{}", "{\"to\":3}",
            "{\"to\":\"/c.txt\",\"x\":1}", "{\"to\":\"/a/../c.txt\"}")) {
            problem(move("archive/a.txt", body), 400);
        }
        assertEquals(List.of("/archive/a.txt", "/b.txt", "/clip.webm", "/t.txt"), catalogNames());
    }

    @Test
    void theHttpPortNeverServesCachedBytesOfAnObjectReplacedMovedOrDeleted() throws Exception {
        serve(MIB);
        byte[] old = new byte[300_000];
        new Random(11).nextBytes(old);
        byte[] fresh = new byte[250_000];
        new Random(12).nextBytes(fresh);
        json(send("PUT", "/api/v1/objects/docs/hot.bin", ADMIN, HttpRequest.BodyPublishers.ofByteArray(old)), 201);
        try (HttpServer http = httpPort()) {
            assertArrayEquals(old, fetch(http, "/docs/hot.bin").body());
            long hits = http.hotObjects().hits();
            assertArrayEquals(old, fetch(http, "/docs/hot.bin").body());
            assertEquals(hits + 1, http.hotObjects().hits(), "served from memory");

            assertEquals(204, send("DELETE", "/api/v1/objects/docs/hot.bin", ADMIN).statusCode());
            assertEquals(404, fetch(http, "/docs/hot.bin").statusCode(), "deleted: not served from memory");
            json(send("PUT", "/api/v1/objects/docs/hot.bin", ADMIN, HttpRequest.BodyPublishers.ofByteArray(fresh)),
                201);
            HttpResponse<byte[]> replaced = fetch(http, "/docs/hot.bin");
            assertArrayEquals(fresh, replaced.body(), "replaced: the new bytes");
            assertArrayEquals(fresh, fetch(http, "/docs/hot.bin").body(), "and the new bytes from memory");

            json(move("docs/hot.bin", "{\"to\":\"/docs/moved.bin\"}"), 200);
            assertEquals(404, fetch(http, "/docs/hot.bin").statusCode(), "moved away: the old name is free");
            HttpResponse<byte[]> moved = fetch(http, "/docs/moved.bin");
            assertArrayEquals(fresh, moved.body(), "moved: the same bytes under the new name");
            assertEquals(replaced.headers().firstValue("ETag"), moved.headers().firstValue("ETag"));

            json(send("PUT", "/api/v1/objects/docs/hot.bin", ADMIN, HttpRequest.BodyPublishers.ofByteArray(old)),
                201);
            assertArrayEquals(old, fetch(http, "/docs/hot.bin").body(), "the old name taken again: its new bytes");
            assertArrayEquals(fresh, fetch(http, "/docs/moved.bin").body());
        }
    }

    private HttpResponse<byte[]> fetch(HttpServer http, String path) throws Exception {
        return server.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.address().getPort()
            + path)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void changesNeedTheAdminTokenAndReadsATokenOfEitherScope() throws Exception {
        serve(MIB);

        problem(send("GET", "/api/v1/objects", null), 401);
        problem(send("GET", "/api/v1/objects/t.txt", null), 401);
        problem(send("PUT", "/api/v1/objects/b.txt", null, HttpRequest.BodyPublishers.ofString("b")), 401);
        problem(send("PUT", "/api/v1/objects/b.txt", READ, HttpRequest.BodyPublishers.ofString("b")), 403);
        problem(send("DELETE", "/api/v1/objects/t.txt", READ), 403);
        problem(send("POST", "/api/v1/objects/t.txt/move", READ, HttpRequest.BodyPublishers.ofString(
            "{\"to\":\"/c.txt\"}")), 403);
        json(send("GET", "/api/v1/objects/t.txt", READ), 200);
        json(send("GET", "/api/v1/objects/t.txt", ADMIN), 200);
        assertEquals(List.of("/clip.webm", "/t.txt"), catalogNames());
        assertEquals(List.of(), uploadsLeft());
    }

    /**
     * A gibibyte, generated as it is sent, goes through the admin port to the library while the
     * heap, and the admin port's buffers, stay within a few pieces of where they were: the body is
     * on disk, not in memory.
     */
    @Test
    @Tag("slow")
    void aGibibyteUploadLeavesTheHeapFlat() throws Exception {
        long size = 1L << 30;
        serve(size);
        long heapBefore = heapAfterGc();
        long directBefore = adminDirectMemory();

        HttpRequest put = server.request("/api/v1/objects/big.bin", ADMIN).timeout(Duration.ofMinutes(2))
            .PUT(HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofInputStream(() -> new GeneratedBytes(size)), size))
            .build();
        CompletableFuture<HttpResponse<String>> upload = server.http.sendAsync(put,
            HttpResponse.BodyHandlers.ofString());
        await("half the upload is on disk").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(50))
            .ignoreExceptions()
            .until(() -> uploadsLeft().size() == 1 && Files.size(uploadsLeft().get(0)) >= size / 2);
        long heapMidway = heapAfterGc();
        long directMidway = adminDirectMemory();
        JsonNode object = json(AdminFixture.conforming(put, upload.get()), 201);
        long heapAfter = heapAfterGc();

        assertEquals(size, object.get("size").longValue());
        assertTrue(heapMidway - heapBefore < 64 * MIB, "the heap grew " + (heapMidway - heapBefore) / MIB
            + " MiB with half a GiB uploaded");
        assertTrue(directMidway - directBefore < 64 * MIB, "direct buffers grew " + (directMidway - directBefore)
            / MIB + " MiB with half a GiB uploaded");
        assertTrue(heapAfter - heapBefore < 64 * MIB, "the heap grew " + (heapAfter - heapBefore) / MIB
            + " MiB after the upload");
        assertEquals(List.of(), uploadsLeft());
    }

    private static long heapAfterGc() {
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    /** The direct memory of the allocator the admin port's connections read into. */
    private static long adminDirectMemory() {
        return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory();
    }

    private MediaObject ingest(String name, byte[] bytes) throws Exception {
        Path source = Files.write(Files.createTempFile(temp, "source", ".bin"), bytes);
        return server.library.ingest().ingest(new IngestRequest(source, name, null, 0), copied -> { });
    }

    private static byte[] clip() throws IOException {
        try (InputStream in = ObjectsResourceTest.class.getResourceAsStream(
            "/io/rondo/content/demo/test-pattern.webm")) {
            return in.readAllBytes();
        }
    }

    /** The library's HTTP port, started on the same library, disks and stream port. */
    private HttpServer httpPort() throws InterruptedException {
        return HttpServer.on(new InetSocketAddress("127.0.0.1", 0), server.library.directory(), server.disks)
                .streams(server.streams)
                .clock(SystemClocks.utc())
                .start();
    }

    private List<String> catalogNames() {
        return server.library.store().catalog().all().stream().map(MediaObject::name).toList();
    }

    private List<Path> uploadsLeft() throws IOException {
        try (Stream<Path> files = Files.list(server.library.dataFolder().resolve(UploadFolder.PATH))) {
            return files.toList();
        }
    }

    private HttpResponse<String> move(String name, String body) throws Exception {
        return send("POST", "/api/v1/objects/" + name + "/move", ADMIN,
            HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpResponse<String> send(String method, String path, String token) throws Exception {
        return send(method, path, token, HttpRequest.BodyPublishers.noBody());
    }

    /** Sends a request to the admin port and holds its response to the OpenAPI document. */
    private HttpResponse<String> send(String method, String path, String token, HttpRequest.BodyPublisher body)
        throws Exception {
        return server.send(request(method, path, token, body));
    }

    private HttpRequest request(String method, String path, String token, HttpRequest.BodyPublisher body) {
        return server.request(path, token).method(method, body).build();
    }

    private static JsonNode json(HttpResponse<String> response, int status) throws IOException {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
        return ApiReply.JSON.readTree(response.body());
    }

    private static JsonNode problem(HttpResponse<String> response, int status) throws IOException {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        JsonNode problem = ApiReply.JSON.readTree(response.body());
        assertEquals(status, problem.get("status").intValue(), response.body());
        return problem;
    }

    /** A response's status line and headers, read up to the blank line. */
    private static String head(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            assertTrue(c >= 0, "the connection closed after: " + head);
            head.append((char) c);
        }
        return head.toString();
    }

    private static List<String> names(JsonNode page) {
        List<String> names = new ArrayList<>();
        page.get("items").forEach(item -> names.add(item.get("name").textValue()));
        return names;
    }

    /** Bytes made as they are read, never held: a repeating pattern of some length. */
    private static final class GeneratedBytes extends InputStream {
        private final long length;
        private long position;

        GeneratedBytes(long length) {
            this.length = length;
        }

        @Override
        public int read() {
            return position < length ? (int) (position++ * 31 & 0xff) : -1;
        }

        @Override
        public int read(byte[] into, int offset, int count) {
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(count, length - position);
            for (int i = 0; i < n; i++) {
                into[offset + i] = (byte) (position++ * 31);
            }
            return n;
        }
    }
}
