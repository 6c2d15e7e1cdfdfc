package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * The answer of a connection an HTTP port (the HTTP port, the admin port) has no room for, written
 * as bytes before any request is read, since no codec stands in its pipeline: 503 with a
 * Retry-After, and the connection closes.
 */
public final class ServiceUnavailable {

    /** When a client refused for want of room may try again. */
    public static final int RETRY_AFTER_SECONDS = 1;

    private ServiceUnavailable() {
    }

    /** The whole answer, dated by {@code dates}, its body saying {@code why}. */
    public static ByteBuf response(DateHeaderHandler dates, String why) {
        String body = "503 Service Unavailable: " + why + "\n";
        return Unpooled.copiedBuffer("HTTP/1.1 503 Service Unavailable\r\nDate: " + dates.now()
            + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
            + body.getBytes(StandardCharsets.UTF_8).length + "\r\nRetry-After: " + RETRY_AFTER_SECONDS
            + "\r\nConnection: close\r\n\r\n" + body, StandardCharsets.UTF_8);
    }
}
