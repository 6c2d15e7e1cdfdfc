package io.rondo.benchmarks.load.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection that GETs a path, whole or by range, and counts the body's
 * bytes without keeping them: a blocking client with nothing between the socket and the clock,
 * so that a read's completion is when its last byte arrived, not when some pool's thread noticed.
 * Content-Length and chunked bodies both; {@link #exchange} keeps a body that the caller reads
 * (a playlist) and leaves the status to it. A connection the server closes is opened again on the
 * next request. {@link #close()} may be called from another thread to cut a request short. One
 * thread uses it otherwise.
 */
public final class HttpConnection implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MS = 10_000;
    private static final int READ_TIMEOUT_MS = 60_000;
    private static final int MAX_LINE = 8192;

    private final String host;
    private final int port;
    private final byte[] sink = new byte[256 * 1024];
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private volatile boolean closed;
    private volatile long bodyBytes;

    /** A connection to {@code host:port}, made on the first request. */
    public HttpConnection(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** What a server answered: its status, its body's length, and the body itself where it was kept. */
    public record Answer(int status, long length, byte[] body) {

        /** The kept body as text (UTF-8), or an empty string where it was not kept. */
        public String text() {
            return body == null ? "" : new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * GETs {@code path}: the whole body if {@code length} is negative, else bytes
     * {@code from .. from + length - 1}.
     *
     * @return the body's length
     * @throws IOException on a status other than 200 or 206, or a broken connection
     */
    public long get(String path, long from, long length) throws IOException {
        Answer answer = exchange(path, from, length, false);
        if (answer.status() != 200 && answer.status() != 206) {
            throw new IOException("GET " + path + " answered " + answer.status());
        }
        return answer.length();
    }

    /**
     * GETs {@code path} as {@link #get} does, whatever the answer's status: the caller judges it.
     *
     * @param keepBody true to keep the body's bytes in the answer (a playlist, a refusal's reason), false to
     *     count them only
     * @throws IOException on a broken connection or an answer that is not HTTP/1.x
     */
    public Answer exchange(String path, long from, long length, boolean keepBody) throws IOException {
        if (closed) {
            throw new IOException("the connection was closed");
        }
        if (socket == null) {
            connect();
        }
        StringBuilder request = new StringBuilder(128).append("GET ").append(path).append(" HTTP/1.1\r\nHost: ")
            .append(host).append(':').append(port).append("\r\n");
        if (length >= 0) {
            request.append("Range: bytes=").append(from).append('-').append(from + length - 1).append("\r\n");
        }
        request.append("\r\n");
        try {
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return response(keepBody);
        } catch (IOException e) {
            disconnect();
            throw e;
        }
    }

    private Answer response(boolean keepBody) throws IOException {
        String status = line();
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP/1.x status line: " + status);
        }
        int code = Integer.parseInt(parts[1]);
        long contentLength = -1;
        boolean chunked = false;
        boolean closeAfter = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            switch (name) {
                case "content-length" -> contentLength = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.contains("chunked");
                case "connection" -> closeAfter = value.contains("close");
                default -> {
                    // Other headers do not change how the body is read.
                }
            }
        }
        ByteArrayOutputStream kept = keepBody ? new ByteArrayOutputStream() : null;
        long body;
        if (chunked) {
            body = chunkedBody(kept);
        } else if (contentLength >= 0) {
            skip(contentLength, kept);
            body = contentLength;
        } else {
            throw new IOException("a response with neither Content-Length nor chunked encoding");
        }
        if (closeAfter) {
            disconnect();
        }
        return new Answer(code, body, kept == null ? null : kept.toByteArray());
    }

    private long chunkedBody(ByteArrayOutputStream kept) throws IOException {
        long total = 0;
        while (true) {
            String size = line();
            int semicolon = size.indexOf(';');
            long chunk = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            if (chunk == 0) {
                while (!line().isEmpty()) {
                    // Trailers carry nothing a reader of bytes needs.
                }
                return total;
            }
            skip(chunk, kept);
            total += chunk;
            line();
        }
    }

    private void skip(long bytes, ByteArrayOutputStream kept) throws IOException {
        long left = bytes;
        while (left > 0) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                throw new EOFException("the body ended " + left + " bytes short");
            }
            if (kept != null) {
                kept.write(sink, 0, n);
            }
            left -= n;
            bodyBytes += n;
        }
    }

    /** Body bytes received so far, requests cut short included: what a download's throughput counts. */
    public long bodyBytes() {
        return bodyBytes;
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection closed mid-response");
            }
            if (b == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            if (line.length() >= MAX_LINE) {
                throw new IOException("a response line longer than " + MAX_LINE + " bytes");
            }
            line.append((char) b);
        }
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setSoTimeout(READ_TIMEOUT_MS);
        s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
        out = s.getOutputStream();
        if (closed) {
            disconnect();
            throw new IOException("the connection was closed");
        }
    }

    private synchronized void disconnect() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // Closing a broken connection has nothing left to report.
            }
        }
        socket = null;
    }

    /** Closes the connection, from any thread: a request under way fails. */
    @Override
    public void close() {
        closed = true;
        Socket s;
        synchronized (this) {
            s = socket;
        }
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // Nothing to do: it is closed either way.
            }
        }
    }
}
