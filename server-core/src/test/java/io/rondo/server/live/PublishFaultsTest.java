package io.rondo.server.live;

import io.rondo.client.Publisher;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a publisher does wrong ends its recording with a clear ERROR and loses nothing already
 * durable: media that is not what it declared, more than its declared rate, going quiet past the
 * client timeout, a name being recorded already; every other recording goes on.
 */
@Timeout(120)
class PublishFaultsTest {

    private static final String PUBLISH = "publish-token-of-the-faults-test";
    private static final long CLIENT_TIMEOUT_MS = 2_000;

    @TempDir
    Path temp;

    private Library library;
    private RondoServer server;
    private int port;

    @BeforeEach
    void serve() throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        server = RondoServer.start(new RondoContext().library(library).model(DiskProfile.paperDisk())
            .tokens(AdminTokens.of("admin-token-of-the-test", "read-token-of-the-test", PUBLISH))
            .streamSettings(StreamSettings.defaults().withTimeouts(CLIENT_TIMEOUT_MS, 5_000)));
        port = server.streams().address().getPort();
    }

    @AfterEach
    void stop() {
        server.close();
        library.close();
    }

    @Test
    void bytesThatAreNotTheDeclaredContainerEndTheRecordingWithBadMedia() throws Exception {
        byte[] garbage = new byte[50_000];
        new Random(23).nextBytes(garbage);
        try (StreamClient client = StreamClient.connect("127.0.0.1", port)) {
            Publisher publisher = client.publish("cams/garbage.mp4", "mp4", 4_000_000, PUBLISH);
            StreamErrorException error = assertThrows(StreamErrorException.class, () -> {
                publisher.send(garbage, 0, garbage.length);
                publisher.finish(Duration.ofSeconds(20));
            });
            assertEquals(ErrorCode.BAD_MEDIA.code(), error.error().code());
            assertTrue(error.error().message().contains("cannot record /cams/garbage.mp4 as mp4"),
                error.error().message());
        }
        assertTrue(library.store().catalog().byName("/cams/garbage.mp4").isEmpty(), "nothing was recorded");
    }

    @Test
    void aPublisherSendingFarFasterThanItDeclaredIsEndedAndWhatWasDurableStays() throws Exception {
        LiveMedia.assumeFfmpeg();
        byte[] source = LiveMedia.fragmentedMp4(20, 25);
        try (StreamClient client = StreamClient.connect("127.0.0.1", port)) {
            Publisher publisher = client.publish("cams/fast.mp4", "mp4", 100_000, PUBLISH);
            StreamErrorException error = assertThrows(StreamErrorException.class, () -> {
                for (int at = 0; at < source.length; at += 10_000) {
                    publisher.send(source, at, Math.min(10_000, source.length - at));
                }
                publisher.finish(Duration.ofSeconds(20));
            });
            assertEquals(ErrorCode.RATE_EXCEEDED.code(), error.error().code());
            assertTrue(error.error().message().contains("faster than the 100000 bit/s it declared"),
                error.error().message());
        }
    }

    @Test
    void aPublisherThatGoesQuietIsEndedAfterTheClientTimeoutWithItsRoundsKept() throws Exception {
        LiveMedia.assumeFfmpeg();
        byte[] source = LiveMedia.fragmentedMp4(6, 25);
        try (StreamClient client = StreamClient.connect("127.0.0.1", port)) {
            Publisher publisher = client.publish("cams/quiet.mp4", "mp4", 8_000_000, PUBLISH);
            publisher.send(source, 0, source.length / 2);
            while (publisher.lastDurable() == null || server.recordings().byName("/cams/quiet.mp4").isPresent()) {
                LockSupport.parkNanos(50_000_000);
            }
            StreamErrorException error = assertThrows(StreamErrorException.class,
                () -> publisher.send(source, source.length / 2, 1000));
            assertEquals(ErrorCode.CLIENT_TIMEOUT.code(), error.error().code());
        }
        MediaObject kept = library.store().catalog().byName("/cams/quiet.mp4").orElseThrow();
        assertTrue(kept.media().fragments().size() >= 2, "the rounds it sent are kept, "
            + kept.media().fragments().size());
    }

    @Test
    void aNameBeingRecordedIsRefusedToASecondPublisherAndTheFirstGoesOn() throws Exception {
        LiveMedia.assumeFfmpeg();
        byte[] source = LiveMedia.fragmentedMp4(4, 25);
        try (StreamClient first = StreamClient.connect("127.0.0.1", port);
             StreamClient second = StreamClient.connect("127.0.0.1", port)) {
            Publisher publisher = first.publish("cams/one.mp4", "mp4", 8_000_000, PUBLISH);
            StreamRejectedException taken = assertThrows(StreamRejectedException.class,
                () -> second.publish("/cams/one.mp4", "mp4", 8_000_000, PUBLISH));
            assertEquals(RejectReason.NAME_TAKEN, taken.reject().reason());
            publisher.send(source, 0, source.length);
            assertTrue(publisher.finish(Duration.ofSeconds(20)).fragments() >= 4);
        }
        try (StreamClient late = StreamClient.connect("127.0.0.1", port)) {
            StreamRejectedException object = assertThrows(StreamRejectedException.class,
                () -> late.publish("cams/one.mp4", "mp4", 8_000_000, PUBLISH));
            assertEquals(RejectReason.NAME_TAKEN, object.reject().reason());
            assertTrue(object.reject().message().contains("is an object already"), object.reject().message());
        }
        assertEquals(Arrays.asList("/cams/one.mp4"), library.store().catalog().withPrefix("/cams/").stream()
            .map(MediaObject::name).toList());
    }
}
