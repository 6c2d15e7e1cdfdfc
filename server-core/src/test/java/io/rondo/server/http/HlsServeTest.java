package io.rondo.server.http;

import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.StoredCopy;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import io.rondo.server.stream.StreamStatus;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HLS over a real socket (docs/hls.md): a playlist request admits a session, which is a stream;
 * its parts come from what the session's rounds read, never from a D-request; a range it cannot
 * take is a plain ranged GET; a session whose client falls silent ends and gives its admission back.
 */
class HlsServeTest {

    private static final Pattern URI_RANGE = Pattern.compile("URI=\"([^\"]+)\",BYTERANGE=\"(\\d+)@(\\d+)\"");
    private static final long CLIENT_TIMEOUT_MS = 1_000;

    @TempDir
    static Path temp;

    private static Library library;
    private static DiskRuntime disks;
    private static StreamServer streams;
    private static HttpServer server;
    /** What the server's clock is moved on by, so that a session's silence passes without waiting for it. */
    private static final AtomicLong SKEW_NS = new AtomicLong();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static byte[] clip;

    @BeforeAll
    static void serve() throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        Path clipFile = demo("color-bars.mp4");
        clip = StoredCopy.of(clipFile);
        library.ingest().ingest(new IngestRequest(clipFile, "/videos/color bars.mp4", null, 0), c -> { });
        library.ingest().ingest(new IngestRequest(demo("test-pattern.webm"), "/videos/pattern.webm", null, 0),
            c -> { });
        NanoClock system = SystemClocks.nanoClock();
        NanoClock skewed = () -> system.nanoTime() + SKEW_NS.get();
        disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
            .model(DiskProfile.paperDisk()).clocks(skewed, SystemClocks.epochClock()));
        streams = StreamServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks,
            AdmissionConfig.defaults(), StreamSettings.defaults().withTimeouts(CLIENT_TIMEOUT_MS, 5_000),
            SystemClocks.epochClock());
        disks.start();
        server = HttpServer.on(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks)
            .streams(streams).clock(SystemClocks.utc()).start();
    }

    private static Path demo(String name) throws Exception {
        try (InputStream in = HlsServeTest.class.getResourceAsStream("/io/rondo/content/demo/" + name)) {
            return Files.write(temp.resolve(name), in.readAllBytes());
        }
    }

    @AfterAll
    static void stop() {
        server.close();
        streams.close();
        disks.close();
        library.close();
    }

    @Test
    void everyPartComesFromTheSessionsReadsAndNoneIsADRequest() throws Exception {
        HttpResponse<String> multivariant = get("/videos/color%20bars.mp4.m3u8?parts=1");
        assertEquals(200, multivariant.statusCode(), multivariant.body());
        assertEquals("application/vnd.apple.mpegurl", multivariant.headers().firstValue("content-type").orElseThrow());
        assertTrue(multivariant.body().contains("CODECS=\"avc1."), multivariant.body());
        String mediaUri = lastLine(multivariant.body());
        String media = get("/videos/" + mediaUri).body();
        assertTrue(media.endsWith("#EXT-X-ENDLIST\n"), media);

        List<long[]> ranges = new ArrayList<>();
        List<String> uris = new ArrayList<>();
        Matcher matcher = URI_RANGE.matcher(media);
        while (matcher.find()) {
            uris.add(matcher.group(1));
            ranges.add(new long[] {Long.parseLong(matcher.group(3)), Long.parseLong(matcher.group(2))});
        }
        assertTrue(ranges.size() >= 7, "the init segment and a part per round: " + media);
        long dRequestsBefore = 0;
        long fromMemoryBefore = 0;
        long fromDiskBefore = 0;
        for (int i = 0; i < ranges.size(); i++) {
            if (i == 1) {
                dRequestsBefore = dRequests();
                fromMemoryBefore = streams.hls().answeredFromMemory();
                fromDiskBefore = streams.hls().answeredFromDisk();
            }
            long[] range = ranges.get(i);
            HttpResponse<byte[]> part = CLIENT.send(request("/videos/" + uris.get(i))
                .header("Range", "bytes=" + range[0] + "-" + (range[0] + range[1] - 1)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(206, part.statusCode(), "part " + i);
            assertArrayEquals(Arrays.copyOfRange(clip, (int) range[0], (int) (range[0] + range[1])), part.body(),
                "part " + i + " is the stored copy's bytes there");
        }

        assertEquals(dRequestsBefore, dRequests(), "no part was a D-request (the init segment, first, was read "
            + "once for the object, as a stream's ACCEPT reads it)");
        assertEquals(fromMemoryBefore + ranges.size() - 1, streams.hls().answeredFromMemory());
        assertEquals(fromDiskBefore, streams.hls().answeredFromDisk());
        List<StreamStatus> listed = streams.streams().get(5, TimeUnit.SECONDS);
        assertTrue(listed.stream().anyMatch(s -> s.transport().equals("hls") && s.fragmentsSent() >= 6), "the "
            + "session is a stream like any other: " + listed);
    }

    @Test
    void anMp4ClipsFolderEntryAndInfoLeadToItsPlaylist() throws Exception {
        String page = get("/videos/").body();
        assertTrue(page.contains("href=\"/videos/color%20bars.mp4.m3u8\" title=\"its HLS playlist"), page);
        String info = get("/player/info/videos/color%20bars.mp4").body();
        assertTrue(info.contains("\"hls\":\"/videos/color bars.mp4.m3u8\""), info);
    }

    @Test
    void aRangeTheSessionCannotTakeIsAPlainRangedGet() throws Exception {
        String mediaUri = lastLine(get("/videos/color%20bars.mp4.m3u8").body());
        String session = mediaUri.substring(mediaUri.indexOf("session="));
        long fromDisk = streams.hls().answeredFromDisk();

        HttpResponse<byte[]> off = CLIENT.send(request("/videos/color%20bars.mp4?" + session)
            .header("Range", "bytes=1200-1299").build(), HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(206, off.statusCode());
        assertArrayEquals(Arrays.copyOfRange(clip, 1200, 1300), off.body());
        assertEquals(fromDisk + 1, streams.hls().answeredFromDisk());
    }

    @Test
    void aWebmClipSaysHlsCannotCarryItAndHowToMakeAnMp4Copy() throws Exception {
        HttpResponse<String> refused = get("/videos/pattern.webm.m3u8");
        assertEquals(415, refused.statusCode());
        assertTrue(refused.body().contains("HLS cannot carry") && refused.body().contains("MP4 copy"),
            refused.body());
        assertEquals(404, get("/videos/nothing.mp4.m3u8").statusCode());
    }

    @Test
    void aSessionWhoseClientFallsSilentEndsAndGivesItsAdmissionBack() throws Exception {
        assertEquals(200, get("/videos/color%20bars.mp4.m3u8").statusCode());
        assertTrue(streams.hls().active() >= 1);
        assertTrue(streams.admission().admittedStreams() >= 1);

        SKEW_NS.addAndGet(TimeUnit.MILLISECONDS.toNanos(3 * CLIENT_TIMEOUT_MS));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((streams.hls().active() > 0 || streams.admission().admittedStreams() > 0)
            && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(0, streams.hls().active(), "the silent sessions ended");
        assertEquals(0, streams.admission().admittedStreams(), "and gave their admission back");
    }

    private static long dRequests() {
        return disks.diskNames().stream().mapToLong(disk -> disks.watch(disk).responses().getTotalCount()).sum();
    }

    private static String lastLine(String playlist) {
        String[] lines = playlist.strip().split("\n");
        return lines[lines.length - 1];
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path))
            .timeout(Duration.ofSeconds(10));
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
    }
}
