package io.rondo.systemtest;

import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.ProtocolException;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A WebSocket client (RFC 6455) spoken by hand over a plain socket, for the stream protocol's
 * WebSocket binding: it sends what a browser would and what no browser would (text messages,
 * fragments, messages past any limit), and reads the server's messages as stream frames. Every
 * read has a timeout: a server that hangs fails the test.
 */
final class RawWebSocket implements AutoCloseable {

    /** RFC 6455 opcodes. */
    static final int CONTINUATION = 0x0;
    static final int TEXT = 0x1;
    static final int BINARY = 0x2;
    static final int CLOSE = 0x8;

    /** The server's answer to the upgrade: its status line and what followed it. */
    record Handshake(int status, String head) {
    }

    /** What the server sent next: a stream frame, its closing handshake's status code, or the end. */
    record Received(Frame frame, Integer closeCode) {
    }

    private static final byte[] MASK = {0x37, 0x1f, 0x5c, 0x0a};

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final Handshake handshake;

    private RawWebSocket(Socket socket, Handshake handshake) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.handshake = handshake;
    }

    /**
     * Asks for the upgrade at {@code /stream}, with {@code origin} as the page's Origin (null for
     * none, as a program sends), and reads the answer's head.
     */
    static RawWebSocket connect(int port, String origin) throws IOException {
        return connect(port, "/stream", origin);
    }

    /**
     * Asks for the upgrade at {@code path} ({@code /stream}, or {@code /stream/NAME}, which names the object as
     * HAProxy routes it), with {@code origin} as the page's Origin (null for none), and reads the answer's head.
     */
    static RawWebSocket connect(int port, String path, String origin) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
        String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + (origin == null ? "" : "Origin: " + origin + "\r\n") + "\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        var raw = socket.getInputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = raw.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int status = text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : -1;
        return new RawWebSocket(socket, new Handshake(status, text));
    }

    Handshake handshake() {
        return handshake;
    }

    /** One stream frame as one final binary message. */
    void send(Frame frame) throws IOException {
        ByteBuffer bytes = FrameCodec.encode(frame);
        sendFrame(BINARY, true, java.util.Arrays.copyOfRange(bytes.array(), 0, bytes.limit()));
    }

    /** One WebSocket frame, masked as a client's must be. */
    void sendFrame(int opcode, boolean last, byte[] payload) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write((last ? 0x80 : 0) | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length);
        } else {
            frame.write(0x80 | 127);
            frame.writeBytes(ByteBuffer.allocate(8).putLong(payload.length).array());
        }
        frame.writeBytes(MASK);
        byte[] masked = payload.clone();
        for (int i = 0; i < masked.length; i++) {
            masked[i] ^= MASK[i % 4];
        }
        frame.writeBytes(masked);
        out.write(frame.toByteArray());
        out.flush();
    }

    /** Only the head of a frame declaring {@code length} payload bytes, as a client that then goes quiet sends. */
    void sendHeadOnly(int opcode, long length) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(14).put((byte) (0x80 | opcode)).put((byte) (0x80 | 127)).putLong(length)
            .put(MASK);
        out.write(head.array());
        out.flush();
    }

    /**
     * The server's next message: a binary one decoded as a stream frame, a close's status code, or
     * both null once the connection has ended.
     *
     * @throws java.net.SocketTimeoutException if the server neither sends nor closes in time
     */
    Received next() throws IOException {
        while (true) {
            int first;
            try {
                first = in.read();
            } catch (SocketException reset) {
                return new Received(null, null);
            }
            if (first < 0) {
                return new Received(null, null);
            }
            long length = in.readUnsignedByte() & 0x7f;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            byte[] payload = new byte[(int) length];
            try {
                in.readFully(payload);
            } catch (EOFException e) {
                return new Received(null, null);
            }
            int opcode = first & 0x0f;
            if (opcode == BINARY) {
                try {
                    return new Received(FrameCodec.decode(ByteBuffer.wrap(payload)), null);
                } catch (ProtocolException e) {
                    throw new IOException("the server's message is no stream frame: " + e.getMessage(), e);
                }
            }
            if (opcode == CLOSE) {
                return new Received(null, payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 0);
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
