package io.rondo.server.http;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.content.ingest.IngestException;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.PooledBuffer;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.Chunk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzes what a client's bytes meet on Rondo's HTTP port: Netty's HTTP/1.1 codec and the pipeline
 * {@link HttpInitializer} builds (keep-alive, aggregation, {@link DiscreteHandler}) in front of a
 * real library, on an embedded channel. The bodies come from memory through the same
 * {@link ChunkReader} seam the disks fill, in pooled buffers.
 *
 * <p>The input is a few pipelined requests (method, path, version, headers chosen by the fuzzer,
 * values any printable text), optionally followed by raw bytes, split as TCP might split them, with
 * the socket going unwritable between pieces when the fuzzer says. What must hold: the answers
 * parse as HTTP/1.1 with a status from 100 to 599 and never 500; every request is answered, once
 * and in order, unless an earlier answer closed the connection; an object's 200 is its bytes, a 206
 * (one part or multipart) is its bytes at each Content-Range; and once the connection closes every
 * request buffer and every pooled body buffer has been released.
 */
class HttpRequestFuzzTest {

    private static final HttpSettings SETTINGS = HttpSettings.defaults();
    /** Netty's longest buffered header line, as {@link HttpInitializer} sets it. */
    private static final int MAX_CHUNK = 8192;
    /** Objects above this are not kept in memory, so their bodies are read chunk by chunk as from a disk. */
    private static final int HOT_MAX = 4096;
    private static final int READ_BYTES = 64 * 1024;

    private static final String[] METHODS = {"GET", "GET", "GET", "HEAD", "POST", "OPTIONS", "DELETE", "PUT"};
    private static final String[] PATHS = {"/small.bin", "/clips/large.bin", "/clips/tiny.bin", "/clips/",
        "/clips", "/", "/player/", "/player/info/small.bin", "/missing", "/small.bin?x=1", "/%73mall.bin",
        "/clips/../small.bin"};
    /** Headers that change the answer but not how the request is framed. */
    private static final String[] HEADERS = {"Range", "Range", "If-Range", "If-Match", "If-None-Match",
        "If-Modified-Since", "If-Unmodified-Since", "Connection", "Host", "Accept", "Accept-Encoding", "Cookie"};
    /** Headers that change where a request ends; a fuzzed name that is one of them becomes a harmless one. */
    private static final List<String> FRAMING = List.of("content-length", "transfer-encoding", "expect", "upgrade");
    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+)");
    private static final Pattern BOUNDARY = Pattern.compile("multipart/byteranges; boundary=(\\S+)");

    @TempDir
    static Path folder;

    private static Library library;
    /** Each object's bytes by its path. */
    private static final Map<String, byte[]> OBJECTS = new LinkedHashMap<>();
    private static final BufferPool POOL = new BufferPool(256L << 20);

    @BeforeAll
    static void openLibrary() throws IOException, IngestException {
        library = Library.open(RondoConfig.defaults(), folder.resolve("data"), SystemClocks.utc());
        ingest("small.bin", 1000);
        ingest("clips/large.bin", 200_000);
        ingest("clips/tiny.bin", 1);
    }

    private static void ingest(String name, int size) throws IOException, IngestException {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        Path source = Files.write(folder.resolve("source-" + size), bytes);
        library.ingest().ingest(new IngestRequest(source, name, null, 0), copied -> { });
        OBJECTS.put("/" + name, bytes);
    }

    @AfterAll
    static void closeLibrary() {
        library.close();
    }

    /** One request as written, and what its answer must be checked against. */
    private record Sent(String method, String path, byte[] wire) {
    }

    // A client's bytes, however split and however odd, get answers a browser can read, and cost no memory.
    @FuzzTest(maxDuration = "20s")
    void exchange(FuzzedDataProvider data) {
        boolean stalls = data.consumeBoolean();
        int[] splits = {data.consumeInt(1, 512), data.consumeInt(1, 512), data.consumeInt(1, 4096)};
        List<Sent> sent = new ArrayList<>();
        int count = data.consumeInt(1, 4);
        for (int i = 0; i < count; i++) {
            sent.add(request(data));
        }
        byte[] tail = data.consumeBoolean() ? rawTail(data.consumeRemainingAsBytes()) : new byte[0];

        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        sent.forEach(request -> wire.writeBytes(request.wire()));
        wire.writeBytes(tail);
        Connection connection = new Connection();
        byte[] answered = connection.deliver(wire.toByteArray(), splits, stalls);

        List<FullHttpResponse> answers = parse(answered, sent);
        try {
            for (int i = 0; i < answers.size(); i++) {
                check(answers.get(i), i < sent.size() ? sent.get(i) : null);
            }
            if (tail.length == 0) {
                assertAnsweredInOrder(sent, answers, connection.closed);
            }
        } finally {
            answers.forEach(FullHttpResponse::release);
        }
    }

    private static Sent request(FuzzedDataProvider data) {
        String method = data.consumeBoolean() ? data.pickValue(METHODS) : token(data.consumeString(8));
        String path = data.consumeBoolean() ? data.pickValue(PATHS) : "/" + pathText(data.consumeString(40));
        String version = data.consumeInt(0, 7) == 0 ? "HTTP/1.0" : "HTTP/1.1";
        StringBuilder text = new StringBuilder(method.isEmpty() ? "GET" : method).append(' ').append(path)
            .append(' ').append(version).append("\r\n");
        int headers = data.consumeInt(0, 5);
        for (int i = 0; i < headers; i++) {
            String name = data.consumeBoolean() ? data.pickValue(HEADERS) : token(data.consumeString(12));
            if (name.isEmpty() || FRAMING.contains(name.toLowerCase(Locale.ROOT))) {
                name = "X-Fuzz";
            }
            text.append(name).append(": ").append(printable(data.consumeString(60))).append("\r\n");
        }
        text.append("\r\n");
        return new Sent(method.isEmpty() ? "GET" : method, path, text.toString().getBytes(StandardCharsets.US_ASCII));
    }

    /** Bytes of any kind after the well-formed requests; a HEAD among them is spelt otherwise so its answer parses. */
    private static byte[] rawTail(byte[] bytes) {
        String latin = new String(bytes, StandardCharsets.ISO_8859_1).replace("HEAD", "HEAP");
        return latin.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String token(String text) {
        return text.replaceAll("[^A-Za-z-]", "");
    }

    private static String pathText(String text) {
        return text.replaceAll("[^A-Za-z0-9._~%/?=&+-]", "");
    }

    private static String printable(String text) {
        return text.replaceAll("[^\\x20-\\x7e]", "").trim();
    }

    /** The server side of one connection: Rondo's HTTP pipeline on an embedded channel. */
    private static final class Connection {

        private final HotObjects hot = new HotObjects(HOT_MAX, 1 << 20);
        private final EmbeddedChannel channel = new EmbeddedChannel(new WireCopy(),
            new HttpServerCodec(SETTINGS.maxRequestLineBytes(), SETTINGS.maxHeaderBytes(), MAX_CHUNK),
            new KeepAliveHandler(), new RequestConformanceHandler(),
            new BodyLimitAggregator(SETTINGS.maxBodyBytes()),
            new DiscreteHandler(new DiscreteRouter(library.directory(), Connection::read, hot, SETTINGS.maxRanges(),
                null, null)));
        private boolean closed;

        /** Reads as a disk would, into a pooled buffer; the handler writes it and gives it back. */
        private static CompletableFuture<Chunk> read(MediaObject object, long offset, int maxBytes) {
            byte[] bytes = OBJECTS.get(object.name().startsWith("/") ? object.name() : "/" + object.name());
            int length = (int) Math.min(Math.min(maxBytes, READ_BYTES), bytes.length - offset);
            PooledBuffer buffer = POOL.acquire(length);
            buffer.buffer().put(bytes, (int) offset, length);
            return CompletableFuture.completedFuture(Chunk.of(buffer.buffer().slice(0, length), buffer));
        }

        /**
         * Writes {@code wire} in pieces of the sizes given, cycled, letting the handler answer after
         * each; then closes the connection and returns every byte the server wrote.
         */
        byte[] deliver(byte[] wire, int[] splits, boolean stalls) {
            List<ByteBuf> written = new ArrayList<>();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int position = 0;
            for (int i = 0; position < wire.length && channel.isActive(); i++) {
                int n = Math.min(splits[i % splits.length], wire.length - position);
                ByteBuf piece = Unpooled.wrappedBuffer(Arrays.copyOfRange(wire, position, position + n));
                written.add(piece);
                position += n;
                channel.writeInbound(piece);
                if (stalls && channel.isActive()) {
                    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
                    channel.runPendingTasks();
                    drain(out);
                    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
                }
                channel.runPendingTasks();
                drain(out);
            }
            closed = !channel.isActive();
            channel.finishAndReleaseAll();
            drain(out);
            hot.close();
            for (ByteBuf piece : written) {
                assertEquals(0, piece.refCnt(), "every request byte the server took is released");
            }
            assertEquals(0, POOL.outstanding(), "every pooled body buffer goes back once the connection is closed");
            return out.toByteArray();
        }

        private void drain(ByteArrayOutputStream out) {
            for (Object message = channel.readOutbound(); message != null; message = channel.readOutbound()) {
                ByteBuf bytes = (ByteBuf) message;
                out.writeBytes(ByteBufUtil.getBytes(bytes));
                bytes.release();
            }
        }
    }

    /**
     * Copies each buffer as it is written, as a socket's send does: a body buffer goes back to its
     * pool once written, and may hold another read's bytes before the test looks at it.
     */
    private static final class WireCopy extends ChannelOutboundHandlerAdapter {
        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            ByteBuf bytes = (ByteBuf) msg;
            ByteBuf copy = Unpooled.copiedBuffer(bytes);
            bytes.release();
            ctx.write(copy, promise);
        }
    }

    /** The answers in {@code bytes}, parsed as a client that sent {@code sent} would, answer by answer. */
    private static List<FullHttpResponse> parse(byte[] bytes, List<Sent> sent) {
        Queue<String> methods = new ArrayDeque<>();
        sent.forEach(request -> methods.add(request.method()));
        EmbeddedChannel client = new EmbeddedChannel(new HttpResponseDecoder() {
            @Override
            protected boolean isContentAlwaysEmpty(HttpMessage msg) {
                String method = methods.poll();
                return "HEAD".equals(method) || super.isContentAlwaysEmpty(msg);
            }
        }, new HttpObjectAggregator(1 << 24));
        client.writeInbound(Unpooled.wrappedBuffer(bytes));
        client.finish();
        List<FullHttpResponse> answers = new ArrayList<>();
        for (Object message = client.readInbound(); message != null; message = client.readInbound()) {
            answers.add((FullHttpResponse) message);
        }
        return answers;
    }

    /** What any answer must be, and for a request of a known object, what its body must be. */
    private static void check(FullHttpResponse answer, Sent request) {
        assertTrue(answer.decoderResult().isSuccess(), "a well-formed answer: " + answer.decoderResult());
        int status = answer.status().code();
        assertTrue(status >= 100 && status <= 599, "status " + status);
        assertNotEquals(500, status, "no request makes the server fail");
        if (request == null) {
            return;
        }
        byte[] object = OBJECTS.get(request.path());
        byte[] body = ByteBufUtil.getBytes(answer.content());
        if (request.method().equals("HEAD")) {
            assertEquals(0, body.length, "a HEAD has no body");
            if (object != null && status == 200) {
                assertEquals(object.length, HttpUtil.getContentLength(answer), "a HEAD tells the object's length");
            }
            return;
        }
        if (object == null || !request.method().equals("GET")) {
            return;
        }
        if (status == 200) {
            assertArrayEquals(object, body, "a 200 is the whole object");
        } else if (status == 206) {
            checkPartial(answer, object, body);
        } else if (status == 416) {
            assertEquals("bytes */" + object.length, answer.headers().get(HttpHeaderNames.CONTENT_RANGE));
        }
    }

    /** A 206's body is the object's bytes at its Content-Range, or at each part's in a multipart body. */
    private static void checkPartial(FullHttpResponse answer, byte[] object, byte[] body) {
        String contentRange = answer.headers().get(HttpHeaderNames.CONTENT_RANGE);
        if (contentRange != null) {
            assertRangeBytes(contentRange, object, body);
            return;
        }
        Matcher boundary = BOUNDARY.matcher(String.valueOf(answer.headers().get(HttpHeaderNames.CONTENT_TYPE)));
        assertTrue(boundary.matches(), "a 206 without Content-Range is multipart/byteranges");
        String text = new String(body, StandardCharsets.ISO_8859_1);
        String delimiter = "\r\n--" + boundary.group(1);
        int at = 0;
        int parts = 0;
        while (text.startsWith(delimiter + "\r\n", at)) {
            int headersEnd = text.indexOf("\r\n\r\n", at);
            assertTrue(headersEnd > 0, "a part has headers");
            Matcher range = CONTENT_RANGE.matcher(text.substring(at, headersEnd));
            assertTrue(range.find(), "each part has a Content-Range");
            int first = Integer.parseInt(range.group(1));
            int length = Integer.parseInt(range.group(2)) - first + 1;
            int start = headersEnd + 4;
            assertTrue(start + length <= body.length, "a part's bytes are all there");
            assertRangeBytes(range.group(), object, Arrays.copyOfRange(body, start, start + length));
            at = start + length;
            parts++;
        }
        assertTrue(parts >= 2, "a multipart body has two parts or more, had " + parts);
        assertEquals(delimiter + "--\r\n", text.substring(at), "the body ends with the closing delimiter");
    }

    private static void assertRangeBytes(String contentRange, byte[] object, byte[] bytes) {
        Matcher range = CONTENT_RANGE.matcher(contentRange);
        assertTrue(range.matches(), "Content-Range " + contentRange);
        long first = Long.parseLong(range.group(1));
        long last = Long.parseLong(range.group(2));
        assertEquals(object.length, Long.parseLong(range.group(3)), "the complete length is the object's");
        assertTrue(first <= last && last < object.length, "the range is within the object: " + contentRange);
        assertArrayEquals(Arrays.copyOfRange(object, (int) first, (int) last + 1), bytes, contentRange);
    }

    /**
     * Each request gets one answer, in order: all of them, or all up to one whose answer closed the
     * connection (Connection: close, or an HTTP/1.0 answer without keep-alive).
     */
    private static void assertAnsweredInOrder(List<Sent> sent, List<FullHttpResponse> answers, boolean closed) {
        assertTrue(answers.size() <= sent.size(), answers.size() + " answers to " + sent.size() + " requests");
        if (answers.size() == sent.size()) {
            return;
        }
        if (answers.isEmpty()) {
            fail("no answer to " + new String(sent.get(0).wire(), StandardCharsets.ISO_8859_1));
        }
        FullHttpResponse last = answers.get(answers.size() - 1);
        assertTrue(closed, "the connection is closed after " + answers.size() + " of " + sent.size() + " answers");
        assertFalse(HttpUtil.isKeepAlive(last), "only an answer that says so closes the connection: "
            + last.status() + " to " + new String(sent.get(answers.size() - 1).wire(), StandardCharsets.ISO_8859_1));
    }
}
