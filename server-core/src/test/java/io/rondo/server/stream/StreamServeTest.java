package io.rondo.server.stream;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Streams end to end on loopback: emulated paper disks, real sockets, the protocol's Java client. */
class StreamServeTest {

    private static final ClientProfile PROFILE = new ClientProfile(4L << 20, 8L << 20);

    @TempDir
    Path temp;

    private Library library;
    private DiskRuntime disks;
    private StreamServer streams;
    private byte[] clip;

    private void serve(AdmissionConfig admission) throws Exception {
        serve(admission, Function.identity());
    }

    private void serve(AdmissionConfig admission, Function<BlockDevice, BlockDevice> device) throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            clip = in.readAllBytes();
        }
        Path clipFile = Files.write(temp.resolve("c.webm"), clip);
        clip = io.rondo.server.StoredCopy.of(clipFile);
        library.ingest().ingest(new IngestRequest(clipFile, "/clip.webm", null, 0), c -> { });
        library.ingest().ingest(new IngestRequest(Files.writeString(temp.resolve("t.txt"), "text"), "/t.txt", null, 0),
            c -> { });
        disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk())
                .emulate(true)
                .device(device)
                .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock()));
        streams = StreamServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks, admission,
            SystemClocks.epochClock());
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

    private byte[] play() throws Exception {
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            Accept accept = client.open("/clip.webm", 0, PROFILE);
            ByteArrayOutputStream media = new ByteArrayOutputStream();
            append(media, accept.initSegment());
            long index = 0;
            for (Data data = client.nextData(); data != null; data = client.nextData()) {
                assertEquals(index++, data.fragmentIndex(), "fragments in order");
                append(media, data.payload());
            }
            return media.toByteArray();
        }
    }

    private static void append(ByteArrayOutputStream out, ByteBuffer bytes) {
        ByteBuffer view = bytes.duplicate();
        byte[] copy = new byte[view.remaining()];
        view.get(copy);
        out.write(copy, 0, copy.length);
    }

    /** The check at scale: 16 streams at once, each byte-identical to the source, none glitching. */
    @Test
    void sixteenConcurrentStreamsArriveWholeAndOnTime() throws Exception {
        serve(AdmissionConfig.defaults());
        ExecutorService clients = Executors.newFixedThreadPool(16);
        try {
            List<Future<byte[]>> received = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                received.add(clients.submit((Callable<byte[]>) this::play));
            }
            for (Future<byte[]> media : received) {
                assertArrayEquals(clip, media.get(), "the init segment and every fragment, byte for byte");
            }
        } finally {
            clients.shutdownNow();
        }
        assertEquals(0, streams.glitches(), "no fragment missed its deadline");
        awaitQuiet();
    }

    /**
     * A disk that stalls for over two rounds on one fragment's read never reaches the next
     * fragment's read in its round: the scheduler drops it, and the stream reads it again at once.
     * The client still gets every fragment, in order, and END; it is not left waiting for a
     * fragment that will never come.
     */
    @Test
    void aFragmentReadTheDiskDroppedAtItsRoundsEndIsReadAgainAndTheStreamPlaysToItsEnd() throws Exception {
        AtomicInteger roundReads = new AtomicInteger();
        serve(AdmissionConfig.defaults(), base -> (request, task, scratch) -> {
            if (request instanceof ContinuousRequest && roundReads.incrementAndGet() == 2) {
                try {
                    Thread.sleep(2_500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return base.read(request, task, scratch);
        });

        assertArrayEquals(clip, play(), "the init segment and every fragment, byte for byte");
        assertTrue(roundReads.get() > 3, "the clip spans more rounds than the stalled one: " + roundReads.get());
        awaitQuiet();
    }

    /** {@code rondo play} writes exactly the object's bytes, and a refusal exits 3 without leaving a file. */
    @Test
    void rondoPlayWritesTheMediaAndExplainsARefusal() throws Exception {
        serve(AdmissionConfig.defaults());
        Path out = temp.resolve("out.webm");
        Path never = temp.resolve("never.bin");
        java.io.StringWriter errors = new java.io.StringWriter();
        String base = "rondo://127.0.0.1:" + streams.address().getPort();

        java.io.PrintWriter quiet = new java.io.PrintWriter(new java.io.StringWriter());
        int played = io.rondo.server.cli.RondoCommand.execute(new String[] {"play", base + "/clip.webm", "-o",
            out.toString(), "-q"}, quiet, new java.io.PrintWriter(errors));
        int refused = io.rondo.server.cli.RondoCommand.execute(new String[] {"play", base + "/t.txt", "-o",
            never.toString()}, quiet, new java.io.PrintWriter(errors));

        assertEquals(0, played, errors.toString());
        assertArrayEquals(clip, Files.readAllBytes(out));
        assertEquals(3, refused);
        assertTrue(errors.toString().contains("NOT_CONTINUOUS"), errors.toString());
        assertTrue(Files.notExists(never), "no file for a stream that never started");
    }

    /** The same protocol as binary WebSocket messages at /stream on the HTTP port, as the browser player uses it. */
    @Test
    void theWebSocketBindingStreamsTheSameBytes() throws Exception {
        serve(AdmissionConfig.defaults());
        try (io.rondo.server.http.HttpServer http = io.rondo.server.http.HttpServer.on(
            new InetSocketAddress("127.0.0.1", 0), library.directory(), disks)
                .streams(streams)
                .clock(SystemClocks.utc())
                .start()) {
            java.util.concurrent.LinkedBlockingQueue<io.rondo.client.protocol.Frame> frames =
                new java.util.concurrent.LinkedBlockingQueue<>();
            java.net.http.WebSocket socket = java.net.http.HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(java.net.URI.create("ws://127.0.0.1:" + http.address().getPort() + "/stream"),
                    new java.net.http.WebSocket.Listener() {
                        private final ByteArrayOutputStream message = new ByteArrayOutputStream();

                        @Override
                        public java.util.concurrent.CompletionStage<?> onBinary(java.net.http.WebSocket ws,
                                                                               ByteBuffer data, boolean last) {
                            append(message, data);
                            if (last) {
                                try {
                                    frames.add(io.rondo.client.protocol.FrameCodec.decode(
                                        ByteBuffer.wrap(message.toByteArray())));
                                } catch (io.rondo.client.protocol.ProtocolException e) {
                                    throw new IllegalStateException(e);
                                }
                                message.reset();
                            }
                            ws.request(1);
                            return null;
                        }
                    }).get(5, java.util.concurrent.TimeUnit.SECONDS);
            socket.sendBinary(io.rondo.client.protocol.FrameCodec.encode(
                new io.rondo.client.protocol.Open("/clip.webm", 0, PROFILE)), true).get(5,
                java.util.concurrent.TimeUnit.SECONDS);
            ByteArrayOutputStream media = new ByteArrayOutputStream();
            while (true) {
                io.rondo.client.protocol.Frame frame = frames.poll(10, java.util.concurrent.TimeUnit.SECONDS);
                assertTrue(frame != null, "a frame within a round or two");
                if (frame instanceof Accept accept) {
                    append(media, accept.initSegment());
                } else if (frame instanceof Data data) {
                    append(media, data.payload());
                } else {
                    assertTrue(frame instanceof io.rondo.client.protocol.End, "then END: " + frame);
                    break;
                }
            }
            socket.abort();
            assertArrayEquals(clip, media.toByteArray());
        }
        awaitQuiet();
    }

    /** On shutdown a streaming client is told so (ERROR, shutting down), not cut off mid-frame. */
    @Test
    void stoppingTheServerEndsStreamsWithAnError() throws Exception {
        serve(AdmissionConfig.defaults());
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            client.open("/clip.webm", 0, PROFILE);
            assertTrue(client.nextData() != null);
            streams.endStreams();
            io.rondo.client.StreamErrorException ended = assertThrows(io.rondo.client.StreamErrorException.class,
                () -> {
                    while (client.nextData() != null) {
                        Thread.onSpinWait();
                    }
                });
            assertTrue(ended.getMessage().contains("shutting down"), ended.getMessage());
        }
        awaitQuiet();
    }

    /** A client whose REPORTs say it is far behind what was sent is slowed, then, still behind, ended. */
    @Test
    void aClientThatReportsItIsFarBehindIsEndedWithATimeout() throws Exception {
        serve(AdmissionConfig.defaults());
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", streams.address().getPort())) {
            socket.setSoTimeout(10_000);
            java.io.OutputStream out = socket.getOutputStream();
            java.io.InputStream in = socket.getInputStream();
            io.rondo.client.protocol.FrameDecoder decoder = new io.rondo.client.protocol.FrameDecoder();
            out.write(toBytes(new io.rondo.client.protocol.Open("/clip.webm", 0, PROFILE)));
            List<io.rondo.client.protocol.Frame> received = new ArrayList<>();
            byte[] chunk = new byte[65536];
            io.rondo.client.protocol.ErrorFrame ended = null;
            int reports = 0;
            while (ended == null) {
                int read = in.read(chunk);
                assertTrue(read > 0, "the server answers before closing");
                received.addAll(decoder.feed(ByteBuffer.wrap(Arrays.copyOf(chunk, read))));
                long fragments = received.stream().filter(frame -> frame instanceof Data).count();
                for (io.rondo.client.protocol.Frame frame : received) {
                    if (frame instanceof io.rondo.client.protocol.ErrorFrame error) {
                        ended = error;
                    }
                    assertFalse(frame instanceof io.rondo.client.protocol.End, "ended with an error, not END");
                }
                if (fragments >= 3 && reports == 0) {
                    for (; reports < ClientLag.BEHIND_REPORTS; reports++) {
                        out.write(toBytes(new io.rondo.client.protocol.Report(0, 0, 0)));
                    }
                }
            }
            assertEquals(io.rondo.client.protocol.ErrorCode.CLIENT_TIMEOUT.code(), ended.code(), ended.toString());
            assertTrue(ended.message().contains("behind"), ended.message());
        }
        awaitQuiet();
    }

    private static byte[] toBytes(io.rondo.client.protocol.Frame frame) {
        ByteBuffer encoded = io.rondo.client.protocol.FrameCodec.encode(frame);
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }

    @Test
    void missingAndDiscreteObjectsAreRefusedWithTheReason() throws Exception {
        serve(AdmissionConfig.defaults());
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            StreamRejectedException missing = assertThrows(StreamRejectedException.class,
                () -> client.open("/nothing.webm", 0, PROFILE));
            assertEquals(RejectReason.NOT_FOUND, missing.reject().reason());
            StreamRejectedException discrete = assertThrows(StreamRejectedException.class,
                () -> client.open("/t.txt", 0, PROFILE));
            assertEquals(RejectReason.NOT_CONTINUOUS, discrete.reject().reason());
        }
    }

    /** With room for one stream per round, a second is refused for disk time, then taken once the first ends. */
    @Test
    void admissionRefusesTheStreamThatWouldOverloadTheDiskAndTakesItWhenRoomReturns() throws Exception {
        serve(AdmissionConfig.defaults().withDiscreteReserve(0.975));
        byte[] first;
        try (StreamClient second = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            ExecutorService one = Executors.newSingleThreadExecutor();
            try {
                Future<byte[]> playing = one.submit((Callable<byte[]>) this::play);
                await("the first stream is admitted").atMost(Duration.ofSeconds(10))
                    .until(() -> streams.activeStreams() > 0 || playing.isDone());
                StreamRejectedException refused = assertThrows(StreamRejectedException.class,
                    () -> second.open("/clip.webm", 0, PROFILE));
                assertEquals(RejectReason.DISK_TIME, refused.reject().reason());
                assertTrue(refused.reject().retryAfterSeconds() > 0, "a retry-after: " + refused.reject());
                first = playing.get();
            } finally {
                one.shutdownNow();
            }
        }
        assertArrayEquals(clip, first);
        awaitQuiet();
        assertArrayEquals(clip, play(), "with the first stream over, the next is admitted");
    }

    /** A link slower than the clip's largest fragment a round: REJECT NETWORK, naming the setting, for good. */
    @Test
    void aStreamPastTheNetworkCapacityIsRefusedNetwork() throws Exception {
        serve(AdmissionConfig.defaults().withNetworkBitsPerSecond(8_000));
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            StreamRejectedException refused = assertThrows(StreamRejectedException.class,
                () -> client.open("/clip.webm", 0, PROFILE));

            assertEquals(RejectReason.NETWORK, refused.reject().reason());
            assertEquals(0, refused.reject().retryAfterSeconds(), "it does not fit even alone");
            assertTrue(refused.reject().message().contains("network.capacity in rondo.yaml"),
                refused.reject().message());
        }
        assertEquals(0, streams.admission().admittedStreams());
    }

    /** papers/004 Section 2.3: a client declares what it can take; one that cannot take this clip is told why. */
    @Test
    void aClientProfileTooSmallForTheClipIsRefusedWithTheReasonAndTheConnectionStaysUsable() throws Exception {
        serve(AdmissionConfig.defaults());
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            StreamRejectedException smallBuffer = assertThrows(StreamRejectedException.class,
                () -> client.open("/clip.webm", 0, new ClientProfile(4L << 20, 10_000)));
            assertEquals(RejectReason.CLIENT_PROFILE, smallBuffer.reject().reason());
            assertEquals(0, smallBuffer.reject().retryAfterSeconds(), "retrying with the same profile cannot help");
            String why = smallBuffer.reject().message();
            assertTrue(why.contains("buffer of 10000 bytes"), why);
            StreamRejectedException slow = assertThrows(StreamRejectedException.class,
                () -> client.open("/clip.webm", 0, new ClientProfile(10_000, 8L << 20)));
            assertEquals(RejectReason.CLIENT_PROFILE, slow.reject().reason());
            assertTrue(slow.reject().message().contains("rate of 10000 bytes/s"), slow.reject().message());
            assertEquals(0, streams.admission().admittedStreams(), "a refused profile takes no admission");

            Accept accept = client.open("/clip.webm", 0, PROFILE);
            assertTrue(accept.streamId() > 0, "after a REJECT the connection takes another OPEN");
        }
        awaitQuiet();
    }

    /**
     * A SEEK is answered by the new position's fragment read at once, due one round after the
     * SEEK, not by the next round's read, due two rounds after that round starts.
     */
    @Test
    void aSeekIsAnsweredByAFragmentReadAtOnce() throws Exception {
        serve(AdmissionConfig.defaults());
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            client.open("/clip.webm", 0, PROFILE);
            long acceptedAt = System.nanoTime();
            assertEquals(0, client.nextData().fragmentIndex());
            long seekAtNs = System.nanoTime() - acceptedAt;
            client.seek(4_500_000_000L);
            Data answer = client.nextData();
            while (!answer.discontinuity()) {
                answer = client.nextData();
            }
            assertEquals(4, answer.fragmentIndex(), "the fragment holding the keyframe at 4.007 s, before 4.5 s");
            long dueAfterSeekNs = answer.deadlineNs() - seekAtNs;
            assertTrue(dueAfterSeekNs <= 1_500_000_000L, "due about one round after the SEEK, not two or more: "
                + dueAfterSeekNs / 1e6 + " ms");
        }
        awaitQuiet();
    }

    @Test
    void aClientThatLeavesMidStreamGivesBackItsBuffersAndItsAdmission() throws Exception {
        serve(AdmissionConfig.defaults());
        try (StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            client.open("/clip.webm", 0, PROFILE);
            assertTrue(client.nextData() != null);
        }
        awaitQuiet();
        assertEquals(0, streams.admission().admittedStreams(), "the admission is released");
    }

    /** Waits (bounded) until no stream is active or admitted and every buffer is back in the pool. */
    private void awaitQuiet() {
        await("the stream's admission is released and its buffers returned").atMost(Duration.ofSeconds(5))
            .untilAsserted(() -> {
                assertEquals(0, streams.activeStreams());
                assertEquals(0, streams.admission().admittedStreams(), "every admission released");
                assertEquals(0, disks.buffers().outstanding(), "every buffer returned");
                assertEquals(0, disks.buffers().reservedBytes(), "every stream's reservation ended");
            });
    }
}
