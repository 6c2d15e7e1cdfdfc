package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.config.HttpSettings;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.server.stream.StreamServer;
import io.rondo.server.stream.WebSocketFrames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stream protocol's WebSocket binding joins an HTTP connection's pipeline at the upgrade and
 * not before: the pipeline {@link HttpInitializer} builds, on an embedded channel, with a real
 * stream server behind it.
 */
class StreamUpgradeTest {

    @TempDir
    static Path temp;

    private static TestLibrary library;
    private static StreamServer streams;
    private EmbeddedChannel channel;

    @BeforeAll
    static void serve() throws Exception {
        library = TestLibrary.open(temp);
        library.ingest("/docs/note.txt", "a note".getBytes(StandardCharsets.UTF_8));
        streams = StreamServer.start(new InetSocketAddress("127.0.0.1", 0), library.library().directory(),
            library.disks(), AdmissionConfig.defaults(), SystemClocks.epochClock());
        library.start();
    }

    @AfterAll
    static void stop() {
        streams.close();
        library.close();
    }

    @BeforeEach
    void connect() {
        channel = new EmbeddedChannel(new HttpInitializer(library.library().directory(), library.disks(), streams,
            new HotObjects(), HttpSettings.defaults(), null, SystemClocks.utc(), ConnectionLimit.unlimited("HTTP"),
            null));
    }

    @AfterEach
    void disconnect() {
        channel.finishAndReleaseAll();
    }

    @Test
    void aPlainHttpConnectionHoldsNoStreamSession() {
        channel.writeInbound(ascii("GET /docs/ HTTP/1.1\r\nHost: rondo\r\n\r\n"));

        assertTrue(written().startsWith("HTTP/1.1 200 OK\r\n"));
        ChannelPipeline pipeline = channel.pipeline();
        assertTrue(pipeline.toMap().values().stream().noneMatch(sessionType()::isInstance), pipeline.names()::toString);
        assertNull(pipeline.get(WebSocketFrames.class));
        assertNotNull(pipeline.get(DiscreteHandler.class));
        assertNull(pipeline.get(StreamUpgradeHandler.class), "no stream binding before a request for /stream");
        assertNull(pipeline.get(HttpInitializer.WEBSOCKET), "nor the WebSocket protocol handler");
    }

    @Test
    void anUpgradeBindsAStreamSessionThatSpeaksTheProtocolAndDropsWhatOnlyHttpNeeded() throws Exception {
        channel.writeInbound(ascii("GET /stream HTTP/1.1\r\nHost: rondo\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n"));

        String handshake = written();
        assertTrue(handshake.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), handshake);
        assertTrue(handshake.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "RFC 6455's accept for its sample key");
        ChannelPipeline pipeline = channel.pipeline();
        assertInstanceOf(sessionType(), pipeline.get(StreamUpgradeHandler.SESSION));
        assertNotNull(pipeline.get(WebSocketFrames.class));
        for (Class<? extends ChannelHandler> gone : List.of(DiscreteHandler.class, KeepAliveHandler.class,
            HttpObjectAggregator.class, HttpServerCodec.class, StreamUpgradeHandler.class)) {
            assertNull(pipeline.get(gone), gone.getSimpleName() + " left at the upgrade: " + pipeline.names());
        }

        channel.writeInbound(maskedBinaryMessage(FrameCodec.encode(new Open("/videos/nothing.webm", 0,
            new ClientProfile(4L << 20, 8L << 20)))));

        Frame answer = FrameCodec.decode(binaryMessagePayload(channel.readOutbound()));
        Reject reject = assertInstanceOf(Reject.class, answer);
        assertEquals(RejectReason.NOT_FOUND, reject.reason(), "the session joined an active channel and answers");
    }

    @Test
    void anUpgradeAtTheObjectsUrlTakesAnOpenOfThatObjectOnlyAndAPlainGetThereIsAnObjectRequest() throws Exception {
        channel.writeInbound(ascii("GET /stream/videos/my%20clip%20%5Bhd%5D.webm HTTP/1.1\r\nHost: rondo\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n"));
        assertTrue(written().startsWith("HTTP/1.1 101 Switching Protocols\r\n"), "HAProxy may route it by object");
        ClientProfile profile = new ClientProfile(4L << 20, 8L << 20);
        channel.writeInbound(maskedBinaryMessage(FrameCodec.encode(new Open("videos/my clip [hd].webm", 0, profile))));
        Reject reject = assertInstanceOf(Reject.class, FrameCodec.decode(binaryMessagePayload(channel.readOutbound())));
        assertEquals(RejectReason.NOT_FOUND, reject.reason(), "the OPEN of the URL's object, decoded, is judged");
        channel.writeInbound(maskedBinaryMessage(FrameCodec.encode(new Open("videos/other.webm", 0, profile))));
        ErrorFrame error = assertInstanceOf(ErrorFrame.class,
            FrameCodec.decode(binaryMessagePayload(channel.readOutbound())));
        assertEquals(ErrorCode.UNEXPECTED_FRAME, error.errorCode());
        assertTrue(error.message().contains("URL names videos/my clip [hd].webm but its OPEN names videos/other.webm"),
            error.message());

        EmbeddedChannel plain = new EmbeddedChannel(new HttpInitializer(library.library().directory(),
            library.disks(), streams, new HotObjects(), HttpSettings.defaults(), null, SystemClocks.utc(),
            ConnectionLimit.unlimited("HTTP"), null));
        plain.writeInbound(ascii("GET /stream/nothing.webm HTTP/1.1\r\nHost: rondo\r\n\r\n"));
        ByteBuf answer = plain.readOutbound();
        assertTrue(answer.toString(StandardCharsets.US_ASCII).startsWith("HTTP/1.1 404"), "no such object");
        answer.release();
        plain.finishAndReleaseAll();
    }

    @Test
    void anUpgradedConnectionSilentPastTheIdleLimitIsClosed() {
        channel.writeInbound(ascii("GET /stream HTTP/1.1\r\nHost: rondo\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n"));
        assertTrue(written().startsWith("HTTP/1.1 101 Switching Protocols\r\n"));
        assertNotNull(channel.pipeline().get(IdleStateHandler.class), "the idle limit stays after the upgrade");

        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        channel.runPendingTasks();

        assertFalse(channel.isOpen(), "silent past http.idleTimeoutSeconds: closed, and its stream with it");
    }

    /** The stream session's class, private to its package. */
    private static Class<? extends ChannelHandler> sessionType() {
        return streams.newSession(library.library().directory(), library.disks(), null).getClass();
    }

    private static ByteBuf ascii(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    /** Everything written so far, as text. */
    private String written() {
        StringBuilder text = new StringBuilder();
        for (ByteBuf bytes = channel.readOutbound(); bytes != null; bytes = channel.readOutbound()) {
            text.append(bytes.toString(StandardCharsets.US_ASCII));
            bytes.release();
        }
        return text.toString();
    }

    /** One binary WebSocket message as a client sends it: final, masked (RFC 6455 Section 5.2). */
    private static ByteBuf maskedBinaryMessage(ByteBuffer payload) {
        byte[] mask = {0x12, 0x34, 0x56, 0x78};
        int length = payload.remaining();
        ByteBuf message = Unpooled.buffer();
        message.writeByte(0x82);
        if (length < 126) {
            message.writeByte(0x80 | length);
        } else {
            message.writeByte(0x80 | 126).writeShort(length);
        }
        message.writeBytes(mask);
        for (int i = 0; i < length; i++) {
            message.writeByte(payload.get(payload.position() + i) ^ mask[i % 4]);
        }
        return message;
    }

    /** The payload of one binary WebSocket message as a server sends it: final, unmasked. */
    private ByteBuffer binaryMessagePayload(ByteBuf first) {
        ByteBuf message = Unpooled.buffer();
        for (ByteBuf bytes = first; bytes != null; bytes = channel.readOutbound()) {
            message.writeBytes(bytes);
            bytes.release();
        }
        assertEquals(0x82, message.readUnsignedByte(), "a final binary message");
        int length = message.readUnsignedByte();
        if (length == 126) {
            length = message.readUnsignedShort();
        }
        byte[] payload = new byte[length];
        message.readBytes(payload);
        return ByteBuffer.wrap(payload);
    }
}
