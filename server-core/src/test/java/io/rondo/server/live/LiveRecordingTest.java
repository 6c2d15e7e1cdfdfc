package io.rondo.server.live;

import io.rondo.client.Publisher;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A publisher records through a whole server on real disks; viewers watch it as it grows and after. */
class LiveRecordingTest {

    private static final String PUBLISH = "publish-token-of-the-live-recording-test";
    private static final ClientProfile PLAYER = new ClientProfile(50_000_000, 256L << 20);

    @TempDir
    Path temp;

    @Test
    @Timeout(120)
    void aPublishedFragmentedMp4IsRecordedOneFragmentARoundAndPlaysBackWithEveryPacket() throws Exception {
        LiveMedia.assumeFfmpeg();
        byte[] source = LiveMedia.fragmentedMp4(6, 25);
        Files.write(temp.resolve("source.mp4"), source);
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
             RondoServer server = RondoServer.start(new RondoContext().library(library)
                 .model(DiskProfile.paperDisk()).tokens(AdminTokens.of("admin-token-of-the-test",
                     "read-token-of-the-test", PUBLISH)))) {
            int port = server.streams().address().getPort();
            Durable last;
            try (StreamClient client = StreamClient.connect("127.0.0.1", port)) {
                Publisher publisher = client.publish("cams/test.mp4", "mp4", 8_000_000, PUBLISH);
                for (int at = 0; at < source.length; at += 10_000) {
                    publisher.send(source, at, Math.min(10_000, source.length - at));
                }
                last = publisher.finish(Duration.ofSeconds(30));
            }
            MediaObject recorded = library.store().catalog().byName("/cams/test.mp4").orElseThrow();
            long durationNs = recorded.media().durationNs();
            assertTrue(durationNs >= 6_000_000_000L && durationNs < 6_100_000_000L,
                "6 s and the audio's last frame, was " + durationNs + " ns");
            assertEquals((durationNs + 999_999_999) / 1_000_000_000, recorded.media().fragments().size(),
                "one fragment a round of 1 s");
            assertEquals(recorded.media().fragments().size(), last.fragments(),
                "the last DURABLE counts every fragment");
            assertEquals(recorded.media().durationNs(), last.durableNs());
            assertEquals(source.length, last.bytesReceived());

            ByteArrayOutputStream played = new ByteArrayOutputStream();
            try (StreamClient viewer = StreamClient.connect("127.0.0.1", port)) {
                Accept accept = viewer.open("cams/test.mp4", 0, PLAYER);
                played.write(bytes(accept.initSegment()));
                Data data;
                while ((data = viewer.nextData()) != null) {
                    played.write(bytes(data.payload()));
                }
            }
            Path copy = Files.write(temp.resolve("played.mp4"), played.toByteArray());
            assertEquals(LiveMedia.packets(temp.resolve("source.mp4")), LiveMedia.packets(copy),
                "every packet recorded and played back, in order");
        }
    }

    /**
     * A viewer opening at the live edge starts at the newest keyframe and is told the recording is
     * live; it gets each fragment as the recording grows, one behind it the fragments from where it
     * asked, and both END once the recording ends, with every fragment.
     */
    @Test
    @Timeout(120)
    void viewersAtTheLiveEdgeAndBehindItFollowTheRecordingToItsEnd() throws Exception {
        LiveMedia.assumeFfmpeg();
        byte[] source = LiveMedia.fragmentedMp4(16, 25);
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
             RondoServer server = RondoServer.start(new RondoContext().library(library)
                 .model(DiskProfile.paperDisk()).tokens(AdminTokens.of("admin-token-of-the-test",
                     "read-token-of-the-test", PUBLISH)));
             StreamClient publishing = StreamClient.connect("127.0.0.1", server.streams().address().getPort())) {
            int port = server.streams().address().getPort();
            Publisher publisher = publishing.publish("cams/live.mp4", "mp4", 1_000_000, PUBLISH);
            CompletableFuture<Durable> published = CompletableFuture.supplyAsync(() -> inRealTime(publisher, source));
            while (publisher.lastDurable() == null || publisher.lastDurable().fragments() < 2) {
                LockSupport.parkNanos(10_000_000);
            }

            String info = RondoServer.url("http", server.http().address()) + "player/info/cams/live.mp4";
            assertTrue(get(info).contains("\"live\":true"), "the player is told to open it at its live edge");
            Viewer edge = fromLive(port, 0);
            assertTrue(edge.accept().live(), "ACCEPT says the object is being recorded");
            Data first = edge.client().nextData();
            assertTrue(edge.client().lastLive() != null && !edge.client().lastLive().ended());
            assertTrue(first.fragmentIndex() >= 1, "the live edge is past the start, was fragment "
                + first.fragmentIndex());
            CompletableFuture<Long> edgeLast = CompletableFuture.supplyAsync(() -> lastFragment(edge.client()));
            Viewer behind = fromLive(port, 2_000_000_000L);
            assertTrue(behind.accept().live());
            Data behindFirst = behind.client().nextData();
            assertTrue(behindFirst.presentationNs() <= behind.client().lastLive().recordedNs() - 1_000_000_000L,
                "2 s behind the edge, to its keyframe");
            CompletableFuture<Long> behindLast = CompletableFuture.supplyAsync(() -> lastFragment(behind.client()));

            Durable last = published.get(60, TimeUnit.SECONDS);
            assertEquals(last.fragments() - 1, edgeLast.get(60, TimeUnit.SECONDS),
                "the viewer at the edge gets to the recording's last fragment");
            assertEquals(last.fragments() - 1, behindLast.get(60, TimeUnit.SECONDS),
                "so does the one behind it");
            for (Viewer viewer : List.of(edge, behind)) {
                assertTrue(viewer.client().lastLive().ended(), "each is told the recording ended");
                viewer.client().close();
            }
            assertTrue(get(info).contains("\"live\":false"), "a finished recording is an ordinary object");
        }
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Reads a viewer's DATA to its END; returns the last fragment's index. */
    private static long lastFragment(StreamClient viewer) {
        try {
            long lastIndex = -1;
            Data data;
            while ((data = viewer.nextData()) != null) {
                lastIndex = data.fragmentIndex();
            }
            return lastIndex;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends {@code source} a thirty-second at a time, twice a second (16 s of media in about 16 s), then finishes. */
    private static Durable inRealTime(Publisher publisher, byte[] source) {
        try {
            int chunk = source.length / 32 + 1;
            for (int at = 0; at < source.length; at += chunk) {
                publisher.send(source, at, Math.min(chunk, source.length - at));
                LockSupport.parkNanos(500_000_000L);
            }
            return publisher.finish(Duration.ofSeconds(30));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A viewer of {@code cams/live.mp4} opened {@code behindNs} behind the live edge; refused while
     * admission measures the disk's rounds, it tries again after the retry-after, as a player does.
     */
    private static Viewer fromLive(int port, long behindNs) throws Exception {
        while (true) {
            StreamClient viewer = StreamClient.connect("127.0.0.1", port);
            try {
                return new Viewer(viewer, viewer.openFromLive("cams/live.mp4", behindNs, PLAYER));
            } catch (StreamRejectedException refused) {
                viewer.close();
                if (refused.reject().retryAfterSeconds() == 0) {
                    throw refused;
                }
                LockSupport.parkNanos(refused.reject().retryAfterSeconds() * 1_000_000_000L);
            }
        }
    }

    @Test
    @Timeout(60)
    void aPublisherWithoutThePublishTokenOrUnderAnObjectsNameIsRefused() throws Exception {
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
             RondoServer server = RondoServer.start(new RondoContext().library(library)
                 .model(DiskProfile.paperDisk()).tokens(AdminTokens.of("admin-token-of-the-test",
                     "read-token-of-the-test", PUBLISH)))) {
            int port = server.streams().address().getPort();
            List<RejectReason> reasons = new ArrayList<>();
            for (String token : new String[] {"", "read-token-of-the-test"}) {
                try (StreamClient client = StreamClient.connect("127.0.0.1", port)) {
                    reasons.add(assertThrows(StreamRejectedException.class,
                        () -> client.publish("cams/a.mp4", "mp4", 4_000_000, token)).reject().reason());
                }
            }
            try (StreamClient client = StreamClient.connect("127.0.0.1", port)) {
                reasons.add(assertThrows(StreamRejectedException.class,
                    () -> client.publish("cams/a.avi", "avi", 4_000_000, PUBLISH)).reject().reason());
            }
            assertEquals(List.of(RejectReason.FORBIDDEN, RejectReason.FORBIDDEN, RejectReason.UNSUPPORTED_MEDIA),
                reasons);
            assertTrue(library.store().catalog().byName("/cams/a.mp4").isEmpty());
        }
    }

    /** A viewer and what its OPEN was answered with. */
    private record Viewer(StreamClient client, Accept accept) {
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
