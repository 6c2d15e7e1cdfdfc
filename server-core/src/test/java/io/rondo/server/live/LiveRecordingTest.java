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
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
             RondoServer server = RondoServer.start(new RondoServer.Context().library(library)
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

    @Test
    @Timeout(60)
    void aPublisherWithoutThePublishTokenOrUnderAnObjectsNameIsRefused() throws Exception {
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
             RondoServer server = RondoServer.start(new RondoServer.Context().library(library)
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

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
