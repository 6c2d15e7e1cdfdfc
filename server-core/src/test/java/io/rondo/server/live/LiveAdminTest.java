package io.rondo.server.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.client.Publisher;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recordings on the admin port, {@code /api/v1/live}, through a whole server on real disks:
 * ffmpeg publishing fragmented MP4 and WebM with an HTTP PUT, each bad PUT refused with its reason, a stream-protocol
 * publisher listed while it records and stopped by an operator.
 */
class LiveAdminTest {

    private static final String ADMIN = "admin-token-of-the-live-admin-test";
    private static final String READ = "read-token-of-the-live-admin-test";
    private static final String PUBLISH = "publish-token-of-the-live-admin-test";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    private Library library;
    private RondoServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void serve() throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        library.ingest().ingest(new IngestRequest(Files.writeString(temp.resolve("t.txt"), "text"), "/t.txt", null,
            0), copied -> { });
        server = RondoServer.start(new RondoContext().library(library).model(DiskProfile.paperDisk())
            .tokens(AdminTokens.of(ADMIN, READ, PUBLISH)));
    }

    @AfterEach
    void stop() {
        server.close();
        library.close();
    }

    /**
     * ffmpeg publishes 5 s of a test picture and a tone with {@code -method PUT}: fragmented MP4
     * named .mp4 (the container from the name), and WebM named without an extension (the container
     * from {@code Content-Type: video/webm}).
     */
    @ParameterizedTest
    @CsvSource({
        "cams/put.mp4, -c:v libx264 -preset ultrafast -g 25 -c:a aac -f mp4 -movflags "
            + "+frag_keyframe+empty_moov+default_base_moof",
        "cams/put-webm, -c:v libvpx -deadline realtime -cpu-used 8 -g 25 -c:a libopus -f webm "
            + "-content_type video/webm"})
    @Timeout(120)
    void ffmpegPublishesWithAnHttpPutAndTheRecordingPlays(String name, String encoding) throws Exception {
        LiveMedia.assumeFfmpeg();
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f",
            "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine", "-t", "5"));
        command.addAll(List.of(encoding.split(" ")));
        command.addAll(List.of("-method", "PUT", "-headers", "Authorization: Bearer " + PUBLISH + "\r\n",
            server.admin().url() + "/api/v1/live/" + name));
        LiveMedia.run(command.toArray(String[]::new));

        await().atMost(Duration.ofSeconds(20)).until(() -> server.recordings().all().isEmpty());
        MediaObject recorded = library.store().catalog().byName("/" + name).orElseThrow();
        int fragments = recorded.media().fragments().size();
        assertTrue(fragments >= 5 && fragments <= 6, "5 s in rounds of 1 s, was " + fragments + " fragments");

        ByteArrayOutputStream played = new ByteArrayOutputStream();
        try (StreamClient viewer = StreamClient.connect("127.0.0.1", server.streams().address().getPort())) {
            Accept accept = viewer.open(name, 0, new ClientProfile(50_000_000, 256L << 20));
            played.write(bytes(accept.initSegment()));
            Data data;
            while ((data = viewer.nextData()) != null) {
                played.write(bytes(data.payload()));
            }
        }
        Path copy = Files.write(temp.resolve("played"), played.toByteArray());
        long video = LiveMedia.packets(copy).stream().filter(packet -> packet.startsWith("0,")).count();
        assertEquals(125, video, "every frame of 5 s at 25 frames a second recorded and played");
    }

    @Test
    @Timeout(60)
    void aBadPutIsRefusedWithItsReasonAndKeepsWhatWasRecorded() throws Exception {
        assertEquals(401, put("cams/a.mp4", null, "video/mp4", new byte[10]).statusCode());
        HttpResponse<String> read = put("cams/a.mp4", READ, "video/mp4", new byte[10]);
        assertEquals(403, read.statusCode(), read.body());
        assertTrue(read.body().contains("this needs the publish or the admin token"), read.body());
        assertEquals("Bearer realm=\"rondo\", error=\"insufficient_scope\", scope=\"publish\"",
            read.headers().firstValue("WWW-Authenticate").orElse(""));

        HttpResponse<String> taken = put("t.txt", PUBLISH, "video/mp4", new byte[10]);
        assertEquals(409, taken.statusCode(), taken.body());
        assertTrue(problem(taken).path("detail").asText().contains("/t.txt is an object already"), taken.body());

        HttpResponse<String> avi = put("cams/a.avi", PUBLISH, null, new byte[10]);
        assertEquals(415, avi.statusCode(), avi.body());
        assertEquals(415, put("cams/a.mp4", PUBLISH, "video/mp2t", new byte[10]).statusCode());

        byte[] garbage = new byte[100_000];
        new Random(23).nextBytes(garbage);
        HttpResponse<String> bad = put("cams/garbage.mp4", ADMIN, null, garbage);
        assertEquals(422, bad.statusCode(), bad.body());
        assertEquals(0, problem(bad).path("fragments").asInt(), bad.body());
        assertTrue(library.store().catalog().byName("/cams/garbage.mp4").isEmpty(), "nothing recorded, nothing kept");

        LiveMedia.assumeFfmpeg();
        byte[] media = LiveMedia.fragmentedMp4(4, 25);
        byte[] broken = Arrays.copyOf(media, media.length + garbage.length);
        System.arraycopy(garbage, 0, broken, media.length, garbage.length);
        HttpResponse<String> cut = put("cams/broken.mp4", PUBLISH, "video/mp4", broken);
        assertEquals(422, cut.statusCode(), cut.body());
        JsonNode kept = problem(cut);
        assertTrue(kept.path("fragments").asInt() >= 1, cut.body());
        assertTrue(kept.path("detail").asText().contains("were recorded and kept as /cams/broken.mp4"), cut.body());
        assertEquals(kept.path("fragments").asInt(),
            library.store().catalog().byName("/cams/broken.mp4").orElseThrow().media().fragments().size());
    }

    @Test
    @Timeout(60)
    void aPublisherIsListedWhileItRecordsAndAnOperatorStopsIt() throws Exception {
        LiveMedia.assumeFfmpeg();
        byte[] source = LiveMedia.fragmentedMp4(4, 25);
        try (StreamClient client = StreamClient.connect("127.0.0.1", server.streams().address().getPort())) {
            Publisher publisher = client.publish("cams/door.mp4", "mp4", 4_000_000, PUBLISH);
            publisher.send(source, 0, source.length);
            await().atMost(Duration.ofSeconds(10)).until(() -> live(READ).path("items").path(0)
                .path("durableFragments").asInt() >= 1);
            JsonNode listed = live(READ);
            JsonNode door = listed.path("items").get(0);
            assertEquals("/cams/door.mp4", door.path("name").asText(), listed.toString());
            assertEquals(4_000_000, door.path("peakBitsPerSecond").asLong());
            assertEquals(source.length, door.path("bytesReceived").asLong());
            assertTrue(door.path("fragmentsCut").asInt() >= 3, listed.toString());
            assertEquals(1, listed.path("totals").path("active").asInt(), listed.toString());

            assertEquals(403, delete("cams/door.mp4", READ).statusCode());
            assertEquals(204, delete("cams/door.mp4", ADMIN).statusCode());
            await().atMost(Duration.ofSeconds(10)).until(() -> server.recordings().all().isEmpty());
            StreamErrorException stopped = assertThrows(StreamErrorException.class,
                () -> publisher.finish(Duration.ofSeconds(10)));
            assertEquals(ErrorCode.ENDED_BY_OPERATOR.code(), stopped.error().code());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> live(ADMIN).path("items").isEmpty());
        assertTrue(library.store().catalog().byName("/cams/door.mp4").orElseThrow().media().fragments().size() >= 3,
            "what was cut is kept");
        String metrics = server.metrics().scrape(null);
        assertTrue(metrics.contains("rondo_live_recordings 0.0"), metrics);
        assertTrue(metrics.contains("rondo_live_bytes_received_total " + source.length + ".0"), metrics);
        assertTrue(metrics.matches("(?s).*\\nrondo_live_write_rounds_total\\{outcome=\"on_time\",?} [1-9].*"),
            metrics);
        assertTrue(metrics.contains("rondo_live_write_rounds_total{outcome=\"late\"} 0.0"), metrics);
        assertTrue(metrics.matches("(?s).*\\nrondo_live_bytes_written_total [1-9].*"), metrics);
        HttpResponse<String> gone = delete("cams/door.mp4", ADMIN);
        assertEquals(404, gone.statusCode(), gone.body());
        assertEquals("application/problem+json", gone.headers().firstValue("Content-Type").orElse(""));
    }

    private HttpResponse<String> put(String name, String token, String type, byte[] body) throws Exception {
        HttpRequest.Builder request = request("/api/v1/live/" + name, token)
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body));
        if (type != null) {
            request.header("Content-Type", type);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> delete(String name, String token) throws Exception {
        return http.send(request("/api/v1/live/" + name, token).DELETE().build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode live(String token) throws Exception {
        HttpResponse<String> response = http.send(request("/api/v1/live", token).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server.admin().url() + path))
            .timeout(Duration.ofSeconds(30));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder;
    }

    private static JsonNode problem(HttpResponse<String> response) throws Exception {
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        return JSON.readTree(response.body());
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
