package io.rondo.server.cli.record;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.Media;
import io.rondo.client.protocol.Publish;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.cli.RondoCommand;
import io.rondo.server.config.RondoConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rondo record} as a person runs it: what it makes of its options, and, against a stand-in
 * server on a loopback port that speaks the stream protocol's frames, what it sends, what it prints
 * and which exit code it ends with.
 */
class RecordCommandTest {

    private static final long SECOND = 1_000_000_000L;
    private static final String TOKEN = "publish-token-0123456789";
    private static final Accept ACCEPT = new Accept(5, SECOND, 4_000_000, "", ByteBuffer.allocate(0));

    @TempDir
    Path temp;

    private final StringWriter stderr = new StringWriter();
    private FakeServer server;

    @AfterEach
    void closeServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private int record(Map<String, String> env, InputStream stdin, String... args) {
        AtomicLong clock = new AtomicLong();
        CommandLine line = new CommandLine(new RecordCommand(env, stdin, () -> clock.addAndGet(SECOND), () -> false));
        line.setErr(new PrintWriter(stderr, true));
        line.setOut(new PrintWriter(new StringWriter(), true));
        return line.execute(args);
    }

    private int record(String... args) {
        return record(Map.of(), InputStream.nullInputStream(), args);
    }

    private static byte[] media(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 13 + i / 509);
        }
        return b;
    }

    @Test
    void theContainerIsTheOptionElseTheNamesExtensionElseTheInputFilesElseTheFirstBytes() throws IOException {
        byte[] mp4 = {0, 0, 0, 0x20, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm'};
        byte[] webm = {0x1a, 0x45, (byte) 0xdf, (byte) 0xa3, 1, 2, 3};
        Path mp4File = Files.write(temp.resolve("take"), mp4);
        Path webmFile = Files.write(temp.resolve("take.mkv"), webm);
        try (RecordInput input = RecordInput.open(mp4File.toString(), InputStream.nullInputStream())) {
            assertEquals("webm", input.container("WebM", "cams/a.mp4"), "the option wins");
            assertEquals("webm", input.container(null, "cams/a.webm"), "then the name's extension");
            assertEquals("mp4", input.container(null, "cams/a.MOV"));
            assertEquals("mp4", input.container(null, "cams/front"), "then the first bytes: an ftyp box");
            assertArrayEquals(new byte[] {0, 0, 0, 0x20, 'f', 't', 'y', 'p'}, input.head());
        }
        try (RecordInput input = RecordInput.open(webmFile.toString(), InputStream.nullInputStream())) {
            assertEquals("webm", input.container(null, "cams/front"), "the input file's extension");
        }
        try (RecordInput input = RecordInput.open("-", new ByteArrayInputStream(webm))) {
            assertEquals("standard input", input.name());
            assertEquals("webm", input.container(null, "cams/front.v1"), "an EBML header");
        }
        try (RecordInput input = RecordInput.open(null, new ByteArrayInputStream(new byte[] {1, 2, 3}))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> input.container(null, "cams/front"));
            assertTrue(e.getMessage().contains("give --container mp4 or --container webm"), e.getMessage());
        }
        assertEquals("mp4", RecordInput.byExtension("a.m4v"));
        assertNull(RecordInput.byExtension("a.mp4/b"), "a folder's extension is not the name's");
        assertThrows(IllegalArgumentException.class, () -> RecordInput.checked("flv"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RecordInput.open(null,
            InputStream.nullInputStream())).getMessage().contains("standard input is empty"));
    }

    @Test
    void peakRatesAreBitsPerSecondWithDecimalUnits() {
        assertEquals(8_000_000, BitRates.parse("8M", "--peak-rate"));
        assertEquals(4_000_000, BitRates.parse("4000k", "--peak-rate"));
        assertEquals(500_000, BitRates.parse("500000", "--peak-rate"));
        assertEquals(2_500_000, BitRates.parse(" 2.5m ", "--peak-rate"));
        assertEquals(1_000_000_000, BitRates.parse("1G", "--peak-rate"));
        for (String bad : new String[] {"0", "-1", "8 Mbps", "", "M", "0.1"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BitRates.parse(bad, "--peak-rate"), bad);
            assertEquals("--peak-rate must be bits per second such as 8M, 4000k or 500000, was '" + bad + "'",
                e.getMessage());
        }
        assertEquals("4.1 Mbit/s", BitRates.format(4_100_000));
        assertEquals("850 kbit/s", BitRates.format(850_000));
    }

    @Test
    void theTokenIsTheOptionElseTheEnvironmentElseThePublishTokenFileServeWrote() throws IOException {
        Map<String, String> env = Map.of(AdminTokens.PUBLISH_ENV, "from-the-environment-01");
        assertEquals(new PublishToken(TOKEN, "--token"),
            PublishToken.find(TOKEN, env, RondoConfig::defaults, temp));
        assertEquals(new PublishToken("from-the-environment-01", "$RONDO_PUBLISH_TOKEN"),
            PublishToken.find(null, env, RondoConfig::defaults, temp));

        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> PublishToken.find(null, Map.of(), RondoConfig::defaults, temp));
        Path file = temp.toAbsolutePath().resolve("rondo/publish.token");
        assertEquals("no publish token at " + file + ": rondo serve writes it at its first start on that storage "
            + "root; give --token TOKEN, --data DIR or $RONDO_PUBLISH_TOKEN", missing.getMessage());

        Files.createDirectories(file.getParent());
        Files.writeString(file, TOKEN + "\n");
        assertEquals(new PublishToken(TOKEN, file.toString()),
            PublishToken.find(null, Map.of(), RondoConfig::defaults, temp));
        assertThrows(IllegalArgumentException.class, () -> PublishToken.find("two words", env, RondoConfig::defaults,
            temp), "a token has no spaces");
    }

    @Test
    void everyOptionIsExplainedInTheHelp() {
        CommandLine line = new CommandLine(new RecordCommand());
        for (OptionSpec option : line.getCommandSpec().options()) {
            assertTrue(option.description().length > 0 && !option.description()[0].isBlank(), option.longestName());
        }
        StringWriter out = new StringWriter();
        assertEquals(0, RondoCommand.execute(new String[] {"record", "--help"}, new PrintWriter(out, true),
            new PrintWriter(stderr, true)));
        assertTrue(out.toString().contains("--peak-rate=RATE"), out.toString());
        assertTrue(out.toString().contains("| rondo record rondo://127.0.0.1:8554/cams/door.mp4"), out.toString());
    }

    @Test
    void aFileIsSentAsPublishThenItsExactBytesAsMediaThenCloseAndTheSummarySaysWhatIsDurable() throws Exception {
        byte[] file = media(300 * 1024);
        Path input = Files.write(temp.resolve("take.bin"), file);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        List<Integer> sizes = new ArrayList<>();
        server = new FakeServer(peer -> {
            assertEquals(new Publish("cams/test.mp4", "mp4", 4_000_000, TOKEN), peer.receive());
            peer.send(ACCEPT);
            for (Frame f = peer.receive(); !(f instanceof Close); f = peer.receive()) {
                ByteBuffer bytes = ((Media) f).payload();
                sizes.add(bytes.remaining());
                while (bytes.hasRemaining()) {
                    received.write(bytes.get());
                }
            }
            peer.send(new Durable(3, 3 * SECOND, received.size()), new End());
            assertNull(peer.receive(), "the client closes after END");
        });

        int exit = record("-i", input.toString(), "--peak-rate", "4M", "--token", TOKEN, server.url("cams/test.mp4"));

        server.await();
        assertEquals(RecordCommand.EXIT_RECORDED, exit, stderr.toString());
        assertArrayEquals(file, received.toByteArray(), "the file's bytes, whole and in order");
        assertEquals(RecordInput.SNIFF_BYTES, sizes.get(0), "the first bytes, read before PUBLISH, go first");
        assertTrue(sizes.stream().allMatch(n -> n > 0 && n <= Media.MAX_BYTES), "within the client-frame limit");
        List<String> lines = stderr.toString().lines().toList();
        assertTrue(lines.get(0).matches("rondo record: [0-9.]+ KiB sent, [0-9.]+ [kM]bit/s, nothing durable yet"),
            "a progress line: " + lines.get(0));
        assertTrue(lines.get(lines.size() - 1).startsWith("rondo record: recorded cams/test.mp4: durable up to 0:03 "
            + "(3 fragments); 300 KiB sent in "), stderr.toString());
    }

    @Test
    void aRefusalPrintsTheServersReasonAndExitsThree() throws Exception {
        server = new FakeServer(peer -> {
            assertEquals(new Publish("cams/x", "webm", 8_000_000, "not-the-servers-token"), peer.receive());
            peer.send(new Reject(RejectReason.FORBIDDEN, 0, "no valid token with the publish scope"));
            assertNull(peer.receive(), "the client closes after REJECT");
        });
        Map<String, String> env = Map.of(AdminTokens.PUBLISH_ENV, "not-the-servers-token");

        int exit = record(env, new ByteArrayInputStream(media(100)), "--container", "webm", server.url("cams/x"));

        server.await();
        assertEquals(RecordCommand.EXIT_REFUSED, exit);
        assertEquals("rondo record: the server refused to record cams/x: FORBIDDEN (no valid token with the publish "
            + "scope); the token from $RONDO_PUBLISH_TOKEN is not the server's publish or admin token"
            + System.lineSeparator(), stderr.toString());
    }

    @Test
    void anErrorThatEndsTheRecordingIsPrintedWithWhatStaysDurableAndExitsFour() throws Exception {
        server = new FakeServer(peer -> {
            peer.receive();
            peer.send(ACCEPT);
            assertTrue(peer.receive() instanceof Media);
            peer.send(new Durable(1, SECOND, 8), new ErrorFrame(ErrorCode.BAD_MEDIA, "no moof box after 8 bytes"));
            while (peer.receive() != null) {
                // What the client still sends is not read into the recording.
            }
        });

        int exit = record(Map.of(), new ByteArrayInputStream(media(2 << 20)), "--token", TOKEN,
            server.url("cams/bad.mp4"));

        server.await();
        assertEquals(RecordCommand.EXIT_BROKEN, exit);
        List<String> lines = stderr.toString().lines().toList();
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("rondo record: the server ended the recording after "), stderr.toString());
        assertTrue(last.endsWith("server error 0x0106 BAD_MEDIA: no moof box after 8 bytes; durable up to 0:01 "
            + "(1 fragment) stays recorded"), stderr.toString());
    }

    @Test
    void whatCannotBeSentIsABadUsageAndNothingIsSent() throws IOException {
        Path empty = Files.createFile(temp.resolve("empty.mp4"));
        assertEquals(RecordCommand.EXIT_USAGE, record("--token", TOKEN, "http://127.0.0.1:1/a.mp4"));
        assertEquals(RecordCommand.EXIT_USAGE, record("--token", TOKEN, "--container", "flv",
            "rondo://127.0.0.1:1/a"));
        assertEquals(RecordCommand.EXIT_USAGE, record("--token", TOKEN, "--peak-rate", "fast",
            "rondo://127.0.0.1:1/a.mp4"));
        assertEquals(RecordCommand.EXIT_USAGE, record("--token", TOKEN, "-i", empty.toString(),
            "rondo://127.0.0.1:1/a.mp4"));
        assertEquals(RecordCommand.EXIT_USAGE, record("--data", temp.toString(), "rondo://127.0.0.1:1/a.mp4"));
        String[] lines = stderr.toString().split(System.lineSeparator());
        assertEquals(5, lines.length, stderr.toString());
        assertTrue(lines[3].endsWith("empty.mp4 is empty: there is nothing to record"), lines[3]);
        assertTrue(lines[4].startsWith("rondo record: no publish token at "), lines[4]);
    }

    @Test
    void aServerThatCannotBeReachedExitsFour() throws IOException {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        int exit = record(Map.of(), new ByteArrayInputStream(media(100)), "--token", TOKEN,
            "rondo://127.0.0.1:" + port + "/a.mp4");
        assertEquals(RecordCommand.EXIT_BROKEN, exit);
        assertTrue(stderr.toString().startsWith("rondo record: cannot connect to 127.0.0.1:" + port + ": "),
            stderr.toString());
        assertFalse(stderr.toString().contains("Exception"), "no class names for a person");
    }

    /** A stand-in for a Rondo server's stream port: one connection, served by a script on its own thread. */
    private static final class FakeServer implements AutoCloseable {
        interface Script {
            void run(Peer peer) throws Exception;
        }

        private final ServerSocket listener;
        private final Thread thread;
        private volatile Throwable failure;

        FakeServer(Script script) throws IOException {
            listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            thread = new Thread(() -> {
                try (Socket socket = listener.accept()) {
                    socket.setSoTimeout(10_000);
                    script.run(new Peer(socket));
                } catch (Throwable t) {
                    failure = t;
                }
            }, "fake-rondo-stream-port");
            thread.setDaemon(true);
            thread.start();
        }

        String url(String name) {
            return "rondo://127.0.0.1:" + listener.getLocalPort() + "/" + name;
        }

        void await() throws Exception {
            thread.join(TimeUnit.SECONDS.toMillis(20));
            if (thread.isAlive()) {
                throw new AssertionError("the fake server's script did not finish");
            }
            if (failure instanceof Exception e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }

    /** The server's end of the connection, decoding as a server does: client frames of at most 64 KiB. */
    private static final class Peer {
        private final InputStream in;
        private final OutputStream out;
        private final FrameDecoder decoder = new FrameDecoder(64 * 1024 - FrameCodec.HEADER_LENGTH);
        private final ArrayDeque<Frame> pending = new ArrayDeque<>();

        Peer(Socket socket) throws IOException {
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }

        /** The next frame from the client; null once it closed the connection. */
        Frame receive() throws IOException {
            while (pending.isEmpty()) {
                byte[] chunk = new byte[16 * 1024];
                int n = in.read(chunk);
                if (n < 0) {
                    decoder.finish();
                    return null;
                }
                pending.addAll(decoder.feed(ByteBuffer.wrap(chunk, 0, n)));
            }
            return pending.poll();
        }

        void send(Frame... frames) throws IOException {
            for (Frame f : frames) {
                ByteBuffer bytes = FrameCodec.encode(f);
                out.write(bytes.array(), 0, bytes.remaining());
            }
            out.flush();
        }
    }
}
