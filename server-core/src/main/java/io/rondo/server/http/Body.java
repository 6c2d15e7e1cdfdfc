package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A response body as planned before a byte of the object is read, so that its Content-Length is
 * known up front and the same plan can be sent from a disk's chunks or from memory: literal bytes
 * (the part headers of a multipart/byteranges body) and byte ranges of the object, in wire order.
 */
record Body(List<Body.Segment> segments) {

    /** No body: a HEAD, or an empty object. */
    static final Body NONE = new Body(List.of());

    Body {
        segments = List.copyOf(segments);
    }

    /** A piece of a body: literal bytes, or {@code length} bytes of the object from {@code offset}. */
    record Segment(byte[] literal, long offset, long length) {

        static Segment literal(String text) {
            byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
            return new Segment(bytes, 0, bytes.length);
        }

        static Segment range(long offset, long length) {
            return new Segment(null, offset, length);
        }

        boolean isLiteral() {
            return literal != null;
        }
    }

    /** Whether nothing follows the head. */
    boolean isEmpty() {
        return segments.isEmpty();
    }

    /** Every byte of the body: its Content-Length. */
    long length() {
        long length = 0;
        for (Segment segment : segments) {
            length += segment.length();
        }
        return length;
    }

    /** The bytes of the object in the body, not counting multipart headers. */
    long objectBytes() {
        long bytes = 0;
        for (Segment segment : segments) {
            if (!segment.isLiteral()) {
                bytes += segment.length();
            }
        }
        return bytes;
    }

    /**
     * Writes the whole body from the object's bytes, without the last content: each range a slice
     * of {@code object} with a reference of its own, so the bytes are written as they are, never
     * copied or changed. The caller's reference stays the caller's.
     */
    void writeFrom(ByteBuf object, ChannelHandlerContext ctx) {
        for (Segment segment : segments) {
            ctx.write(new DefaultHttpContent(segment.isLiteral() ? Unpooled.wrappedBuffer(segment.literal())
                : object.retainedSlice((int) segment.offset(), (int) segment.length())));
        }
    }
}
