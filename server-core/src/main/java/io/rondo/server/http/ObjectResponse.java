package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.rondo.content.model.MediaObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The answer to a GET or HEAD of one object, decided before a byte of it is read, so that a
 * precondition that fails or a range that cannot be satisfied costs no disk time: RFC 9110's
 * preconditions and ranges ({@link ConditionalRequests}) against the object's validators give the
 * status, and the status gives the headers and the {@link Body} to send.
 *
 * <p>Every answer carries the validators (ETag, Last-Modified, Accept-Ranges) and
 * {@code Cache-Control: no-cache} ({@link #CACHE_CONTROL}). A 304, 412 or 416
 * is whole in its head, a {@link FullHttpResponse} with no object bytes; a 200 or 206 has a head
 * with the Content-Length of its body, and the body is one range, or several as
 * multipart/byteranges with a boundary of its own.
 */
final class ObjectResponse {

    /**
     * The heads of 200 and 206 answers skip Netty's header validation, of names as well as values
     * (Netty's {@code withValidation(false)} alone still checks every name): every name is a
     * constant and every value Rondo's own (validators from the catalog, ranges it computed).
     */
    private static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory()
        .withNameValidation(false).withValueValidation(false);
    /** Last-Modified values by modification time, so a hot object's is formatted once, not per answer. */
    private static final HttpDates LAST_MODIFIED = new HttpDates(HttpDates.IMF_FIXDATE);

    private final HttpResponse head;
    private final Body body;
    private final boolean keepAlive;

    private ObjectResponse(HttpResponse head, Body body, boolean keepAlive) {
        this.head = head;
        this.body = body;
        this.keepAlive = keepAlive;
    }

    /**
     * Decides the answer to {@code request} for {@code object}, granting at most {@code maxRanges}
     * ranges. A multipart body that would be larger than the whole object (many small ranges, each
     * costing a part's header) is replaced by the whole object, a 200: no range request is answered
     * with more bytes than the object has.
     */
    static ObjectResponse decide(HttpRequest request, MediaObject object, int maxRanges) {
        Representation target = new Representation(object.size(), object.etag(), object.modifiedMs());
        Outcome outcome = ConditionalRequests.evaluate(request.method().name(), request.headers()::get, target,
            maxRanges);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (outcome.status() == 304 || outcome.status() == 412 || outcome.status() == 416) {
            HttpResponseStatus status = HttpResponseStatus.valueOf(outcome.status());
            FullHttpResponse response = outcome.status() == 304
                ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status)
                : HttpResponses.text(status,
                    outcome.status() == 412 ? "a precondition failed" : "no requested range is satisfiable");
            validators(response, object);
            if (outcome.status() == 416) {
                response.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + object.size());
            }
            return new ObjectResponse(response, Body.NONE, keepAlive);
        }
        String boundary = outcome.multipart() ? "rondo-" + Long.toHexString(ThreadLocalRandom.current().nextLong())
            : null;
        Body parts = boundary == null ? null : multipart(outcome.ranges(), object, boundary);
        if (parts != null && parts.length() > object.size()) {
            outcome = Outcome.of(200);
            parts = null;
        }
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(outcome.status()), HEADERS);
        validators(response, object);
        Body body;
        if (parts != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "multipart/byteranges; boundary=" + boundary);
            body = parts;
        } else {
            body = single(outcome, object, response);
        }
        HttpUtil.setContentLength(response, body.length());
        HttpUtil.setKeepAlive(response, keepAlive);
        boolean head = request.method().equals(HttpMethod.HEAD);
        return new ObjectResponse(response, head || body.length() == 0 ? Body.NONE : body, keepAlive);
    }

    /** The body of a 200 or a single-range 206; sets the Content-Type (and for a range, Content-Range) it needs. */
    private static Body single(Outcome outcome, MediaObject object, HttpResponse response) {
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, object.mimeType());
        if (outcome.whole()) {
            return new Body(List.of(Body.Segment.range(0, object.size())));
        }
        ByteRangeSpec range = outcome.ranges().get(0);
        response.headers().set(HttpHeaderNames.CONTENT_RANGE, range.contentRange(object.size()));
        return new Body(List.of(Body.Segment.range(range.first(), range.length())));
    }

    /** A multipart/byteranges body of {@code ranges}, its parts separated by {@code boundary}. */
    private static Body multipart(List<ByteRangeSpec> ranges, MediaObject object, String boundary) {
        List<Body.Segment> segments = new ArrayList<>();
        for (ByteRangeSpec range : ranges) {
            segments.add(Body.Segment.literal("\r\n--" + boundary + "\r\nContent-Type: " + object.mimeType()
                + "\r\nContent-Range: " + range.contentRange(object.size()) + "\r\n\r\n"));
            segments.add(Body.Segment.range(range.first(), range.length()));
        }
        segments.add(Body.Segment.literal("\r\n--" + boundary + "--\r\n"));
        return new Body(segments);
    }

    /**
     * What a cache may do with an object: keep it, but ask again before each use. A name can be
     * given to new bytes at any time (a delete and an ingest, the player's files at an upgrade), and
     * asking costs a 304 from the catalog, no disk read.
     */
    static final String CACHE_CONTROL = "no-cache";

    private static void validators(HttpResponse response, MediaObject object) {
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, CACHE_CONTROL);
        response.headers().set(HttpHeaderNames.ETAG, object.etag());
        response.headers().set(HttpHeaderNames.LAST_MODIFIED, LAST_MODIFIED.format(object.modifiedMs()));
        response.headers().set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES);
    }

    /**
     * Writes the whole answer, head and body, from the object's bytes in memory, taking over the
     * caller's reference to them. A body of one range goes out as one message, the head and a
     * slice of the bytes, so it passes the pipeline once; a multipart body part by part.
     */
    void writeFrom(ByteBuf object, ChannelHandlerContext ctx) {
        if (body.segments().size() == 1 && !body.segments().get(0).isLiteral()) {
            Body.Segment range = body.segments().get(0);
            HttpResponse head = this.head;
            HttpResponses.end(ctx, new DefaultFullHttpResponse(head.protocolVersion(), head.status(),
                object.slice((int) range.offset(), (int) range.length()), head.headers(),
                EmptyHttpHeaders.INSTANCE), keepAlive);
            return;
        }
        ctx.write(head);
        try {
            body.writeFrom(object, ctx);
        } finally {
            object.release();
        }
        HttpResponses.end(ctx, keepAlive);
    }

    /**
     * The status line and headers. A {@link FullHttpResponse} is the whole answer (304, 412, 416),
     * to be sent as any whole answer is; otherwise the body follows it.
     */
    HttpResponse head() {
        return head;
    }

    /** What follows the head: {@link Body#NONE} for a HEAD, an empty object, or a whole answer. */
    Body body() {
        return body;
    }

    /** Whether the connection stays open after this answer, as the request asked. */
    boolean keepAlive() {
        return keepAlive;
    }
}
