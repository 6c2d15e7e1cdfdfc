package io.rondo.server.stream;

import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.live.LiveMedia;
import io.rondo.server.runtime.DiskRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * papers/004 Section 4 end to end on loopback: a buffer ceiling that holds a few double buffers
 * takes several times as many streams whose clients buffer and receive fast (ClBufRate), every one
 * of them on time; and a client that declares a fast rate but does not take its data is ended by
 * its guard while the others play on.
 */
class ClientBuffersServeTest {

    /** A client that declares 16 MiB of buffer and 100 Mbit/s. */
    private static final ClientProfile FAST = new ClientProfile(12_500_000, 16L << 20);

    @TempDir
    Path temp;

    private Library library;
    private DiskRuntime disks;
    private StreamServer streams;
    private long peak;

    private void serve(long ceilingBytes) throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            serve(ceilingBytes, in.readAllBytes(), "c.webm");
        }
    }

    private void serve(long ceilingBytes, byte[] media, String file) throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        Path clip = Files.write(temp.resolve(file), media);
        library.ingest().ingest(new IngestRequest(clip, "/clip", null, 0), c -> { });
        try (Directory.Lease lease = library.directory().open("/clip").orElseThrow()) {
            peak = lease.object().media().peakFragmentBytes();
        }
        disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
            .model(DiskProfile.paperDisk())
            .emulate(true)
            .bufferCeilingBytes(ceilingBytes)
            .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock()));
        streams = StreamServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks,
            AdmissionConfig.defaults(), SystemClocks.epochClock());
        disks.start();
    }

    @AfterEach
    void stop() {
        if (streams != null) {
            streams.close();
        }
        if (disks != null) {
            disks.close();
        }
        if (library != null) {
            library.close();
        }
    }

    /**
     * Under a ceiling of eight double buffers, thin clients (a buffer of two fragments) are refused
     * for buffer memory after a handful; clients that buffer and receive fast are admitted past
     * three times as many, each as ClBufRate, and every one plays to its end with no fragment late.
     */
    @Test
    void aCeilingOfAFewDoubleBuffersTakesManyMoreFastClientsAllOnTime() throws Exception {
        serve(1L << 20);
        ClientProfile thin = new ClientProfile(FAST.maxReceiveBytesPerSecond(), 2 * peak);
        List<StreamClient> held = new ArrayList<>();
        int doubled = 0;
        try {
            while (true) {
                StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort());
                held.add(client);
                try {
                    client.open("/clip", 0, thin);
                    doubled++;
                } catch (StreamRejectedException refused) {
                    assertEquals(RejectReason.BUFFER_MEMORY, refused.reject().reason(), refused.getMessage());
                    assertTrue(refused.reject().message().contains("DblBuf")
                        && refused.reject().message().contains("gets ClBuf"), refused.reject().message());
                    break;
                }
            }
            assertEquals(doubled, streams.streamsIn(BufferMode.DOUBLE));
        } finally {
            for (StreamClient client : held) {
                client.close();
            }
        }
        assertTrue(doubled >= 2 && doubled <= 8, "a few double buffers: " + doubled);
        await().atMost(Duration.ofSeconds(10)).until(() -> streams.activeStreams() == 0
            && disks.buffers().inUseBytes() == 0);

        int fast = 3 * doubled + 1;
        ExecutorService players = Executors.newFixedThreadPool(fast);
        try {
            List<Future<Integer>> played = new ArrayList<>();
            for (int i = 0; i < fast; i++) {
                played.add(players.submit(this::playFast));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> streams.streamsIn(BufferMode.CLIENT_RATE) == fast);
            assertTrue(disks.buffers().inUseBytes() <= disks.buffers().ceilingBytes());
            for (Future<Integer> fragments : played) {
                assertTrue(fragments.get() > 3, "played to its end");
            }
        } finally {
            players.shutdownNow();
        }
        assertEquals(0, streams.glitches(), "no fragment missed its deadline");
        assertEquals(0, disks.buffers().sharedOverdrafts(), "the shared account was never passed");
        assertEquals(0, streams.guardEndedStreams());
    }

    /**
     * A client declares 100 Mbit/s and a 16 MiB buffer, then reads nothing from a 4 KiB socket
     * buffer: once the sockets' buffers are full (a few MiB: an 8 Mbit/s clip), its guard ends it,
     * and the fast clients beside it play to their ends on time.
     */
    @Test
    void aClientThatDoesNotTakeItsDataAtItsDeclaredRateIsEndedAndHurtsNoOther() throws Exception {
        LiveMedia.assumeFfmpeg();
        serve(64L << 20, LiveMedia.run("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
            "testsrc2=size=640x480:rate=25", "-t", "10", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
            "-b:v", "8M", "-minrate", "8M", "-maxrate", "8M", "-bufsize", "2M", "-f", "mp4", "-movflags",
            "+frag_keyframe+empty_moov+default_base_moof", "-"), "c.mp4");
        try (Socket liar = new Socket()) {
            liar.setReceiveBufferSize(4096);
            liar.connect(streams.address());
            ByteBuffer open = FrameCodec.encode(new Open("/clip", 0, FAST));
            byte[] bytes = new byte[open.remaining()];
            open.get(bytes);
            liar.getOutputStream().write(bytes);
            liar.getOutputStream().flush();
            ExecutorService players = Executors.newFixedThreadPool(3);
            try {
                List<Future<Integer>> played = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    played.add(players.submit(this::playFast));
                }
                await().atMost(Duration.ofSeconds(20)).until(() -> streams.guardEndedStreams() == 1);
                for (Future<Integer> fragments : played) {
                    assertTrue(fragments.get() > 3, "played to its end");
                }
            } finally {
                players.shutdownNow();
            }
        }
        assertEquals(0, streams.glitches(), "the others' fragments all left in time");
    }

    /** Plays the clip as a fast client to its END: the fragments it got. */
    private int playFast() throws Exception {
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            client.open("/clip", 0, FAST);
            int fragments = 0;
            for (Data data = client.nextData(); data != null; data = client.nextData()) {
                ByteBuffer payload = data.payload();
                assertTrue(payload.remaining() > 0);
                fragments++;
            }
            return fragments;
        }
    }
}
