package io.rondo.server.admin;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;

import java.io.ByteArrayOutputStream;

/**
 * The body of a request that is no upload, gathered whole in memory up to {@link #MAX_BODY} bytes
 * (policies and moves are small); and the check, from the head, that a declared body fits its
 * route's limit before any of it is read.
 */
final class RequestBody {

    /** The largest body a route that is no upload takes. */
    static final int MAX_BODY = 1 << 20;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /**
     * The 413 problem of a body whose Content-Length passes {@code route}'s limit ({@link #MAX_BODY},
     * or {@code maxUploadBytes} for an upload, none for a live stream), or null if it fits or is not
     * declared.
     */
    static Problem declaredTooLarge(HttpRequest head, Route route, long maxUploadBytes) {
        if (route.live()) {
            return null;
        }
        long declared = HttpUtil.getContentLength(head, -1L);
        long limit = route.upload() != null ? maxUploadBytes : MAX_BODY;
        if (declared > limit) {
            return Problem.payloadTooLarge("the body of " + declared + " bytes is larger than the limit of "
                + limit + " bytes" + (route.upload() != null ? " (admin.maxUpload)" : ""));
        }
        return null;
    }

    /** Appends a piece of the body; false, with nothing appended, if it would pass {@link #MAX_BODY}. */
    boolean append(ByteBuf piece) {
        if (bytes.size() + piece.readableBytes() > MAX_BODY) {
            return false;
        }
        byte[] copy = new byte[piece.readableBytes()];
        piece.readBytes(copy);
        bytes.write(copy, 0, copy.length);
        return true;
    }

    /** The 413 problem of a body that passed {@link #MAX_BODY}. */
    static Problem tooLarge() {
        return Problem.payloadTooLarge("a body of this resource is at most " + MAX_BODY + " bytes");
    }

    /** The body so far. */
    byte[] bytes() {
        return bytes.toByteArray();
    }
}
