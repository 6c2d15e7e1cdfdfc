package io.rondo.server.cli.admin;

import io.rondo.client.Publisher;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.cli.RondoCommand;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.live.LiveMedia;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo admin live} as a user runs it against a whole server: the recordings listed, one stopped. */
class LiveCommandTest {

    private static final String ADMIN = "admin-token-of-the-live-command-test";
    private static final String PUBLISH = "publish-token-of-the-live-command-test";

    @TempDir
    Path temp;

    private Library library;
    private RondoServer server;
    private Path tokenFile;
    private StringWriter stdout = new StringWriter();
    private StringWriter stderr = new StringWriter();

    @BeforeEach
    void serve() throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        server = RondoServer.start(new RondoContext().library(library).model(DiskProfile.paperDisk())
            .tokens(AdminTokens.of(ADMIN, "read-token-of-the-live-command-test", PUBLISH)));
        tokenFile = Files.writeString(temp.resolve("admin.token"), ADMIN + "\n");
    }

    @AfterEach
    void stop() {
        server.close();
        library.close();
    }

    private int admin(String... args) {
        stdout = new StringWriter();
        stderr = new StringWriter();
        String[] line = new String[args.length + 5];
        line[0] = "admin";
        line[1] = "--url";
        line[2] = server.admin().url();
        line[3] = "--token-file";
        line[4] = tokenFile.toString();
        System.arraycopy(args, 0, line, 5, args.length);
        return RondoCommand.execute(line, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    @Test
    void withNothingRecordingItSaysSoAndStoppingANameNotRecordedIs404() {
        assertEquals(0, admin("live"), stderr.toString());
        assertEquals("nothing is being recorded\n0 recordings now, 0 since the start: 0 write rounds, 0 late, 0 B "
            + "written\n", stdout.toString());
        assertEquals(1, admin("live", "stop", "/cams/none.mp4"));
        assertEquals("rondo admin live stop: the server answered 404 Not found: nothing is being recorded as "
            + "/cams/none.mp4\n", stderr.toString());
        assertEquals(0, admin("live", "--help"));
        assertTrue(stdout.toString().contains("rondo admin live stop NAME"), stdout.toString());
    }

    @Test
    @Timeout(60)
    void aRecordingIsListedAsATableAndStopEndsItForItsPublisher() throws Exception {
        LiveMedia.assumeFfmpeg();
        byte[] source = LiveMedia.fragmentedMp4(4, 25);
        try (StreamClient client = StreamClient.connect("127.0.0.1", server.streams().address().getPort())) {
            Publisher publisher = client.publish("cams/door.mp4", "mp4", 4_000_000, PUBLISH);
            publisher.send(source, 0, source.length);
            await().atMost(Duration.ofSeconds(10)).until(() -> server.recordings().all().stream()
                .anyMatch(recording -> recording.durableFragments() >= 1));

            assertEquals(0, admin("live"), stderr.toString());
            List<String> rows = stdout.toString().lines().toList();
            assertTrue(rows.get(0).matches("NAME +DISK +PEAK +RATE +RECEIVED +FRAGMENTS +WRITES +LATE +DURABLE "
                + "+RECORDED +VIEWERS"), rows.get(0));
            assertTrue(rows.get(1).matches("/cams/door\\.mp4 +\\S+ +4 Mbit/s +[\\d.]+ kbit/s +[\\d.]+ KiB +\\d+ +\\d+ "
                + "+0 +[\\d.]+ s \\(\\d+\\) +[\\d.]+ s +0"), rows.get(1));
            assertTrue(rows.get(2).startsWith("1 recording now, 1 since the start: "), rows.get(2));

            assertEquals(0, admin("live", "stop", "cams/door.mp4"), stderr.toString());
            assertEquals("stopping the recording of /cams/door.mp4; it closes once its last round is written\n",
                stdout.toString());
            await().atMost(Duration.ofSeconds(10)).until(() -> server.recordings().all().isEmpty());
            StreamErrorException stopped = assertThrows(StreamErrorException.class,
                () -> publisher.finish(Duration.ofSeconds(10)));
            assertEquals(ErrorCode.ENDED_BY_OPERATOR.code(), stopped.error().code());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> admin("live") == 0
            && stdout.toString().startsWith("nothing is being recorded\n0 recordings now, 1 since the start"));
    }
}
