package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.IdleStateEvent;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.MediaObject;
import io.rondo.server.content.PlayerFiles;
import io.rondo.server.runtime.Chunk;
import io.rondo.server.runtime.DiskRuntime;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Answers GET and HEAD for discrete data: objects by their names, folders as pages, with RFC 9110
 * ranges and preconditions ({@link ConditionalRequests}).
 *
 * <p>It never reads a disk: a body is fetched a chunk at a time from {@link DiskRuntime} (D-requests
 * through the disk's scheduler), each chunk written when it arrives, the next asked for only while
 * the channel is writable, so one connection holds at most one chunk being read and the chunks
 * Netty has not yet written. Each chunk's buffer returns to the pool when its write completes.
 * While a body is sent, the object holds a {@link Directory.Lease}, so it cannot be deleted under
 * the reader.
 *
 * <p>A small discrete object ({@link HotObjects#cacheable}) is the exception: its body is built from
 * its bytes in {@link HotObjects} when they are there, with no disk read; when not, the object is
 * read whole (D-requests as ever, one for an object up to {@link DiskRuntime#CHUNK_BYTES}), the
 * body is built from those bytes, and they are cached. The client gets the same bytes either way.
 */
final class DiscreteHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final Directory directory;
    private final DiskRuntime disks;
    private final HotObjects hot;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private Sending transfer;

    DiscreteHandler(Directory directory, DiskRuntime disks, HotObjects hot) {
        this.directory = directory;
        this.disks = disks;
        this.hot = hot;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        waiting.add(request.retain());
        answerWaiting(ctx);
    }

    /**
     * Answers pipelined requests in order: each once the body before it is sent, and while the
     * channel is writable (a body from memory is written at once, so this is its backpressure).
     */
    private void answerWaiting(ChannelHandlerContext ctx) {
        FullHttpRequest next;
        while (transfer == null && ctx.channel().isActive() && ctx.channel().isWritable()
            && (next = waiting.poll()) != null) {
            try {
                handle(ctx, next);
            } finally {
                next.release();
            }
        }
    }

    private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            HttpResponseStatus status = cause instanceof TooLongHttpLineException
                ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                : cause instanceof TooLongFrameException ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                : HttpResponseStatus.BAD_REQUEST;
            plain(ctx, request, status, status.reasonPhrase(), true);
            return;
        }
        HttpMethod method = request.method();
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            FullHttpResponse response = text(HttpResponseStatus.METHOD_NOT_ALLOWED,
                "only GET and HEAD are served here");
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            send(ctx, request, response, false);
            return;
        }
        String path;
        try {
            path = new QueryStringDecoder(request.uri()).path();
        } catch (IllegalArgumentException e) {
            plain(ctx, request, HttpResponseStatus.BAD_REQUEST, "the path is not valid URL encoding", false);
            return;
        }
        if (!path.startsWith("/") || path.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == '\\')) {
            plain(ctx, request, HttpResponseStatus.BAD_REQUEST, "the path is not an absolute path", false);
            return;
        }
        if (path.equals(PlayerFiles.FOLDER)) {
            path = PlayerFiles.PAGE;
        } else if (path.startsWith(MediaInfo.PREFIX)) {
            info(ctx, request, path.substring(MediaInfo.PREFIX.length() - 1));
            return;
        }
        if (path.endsWith("/")) {
            folder(ctx, request, path);
            return;
        }
        String name;
        try {
            name = ObjectNames.normalize(path);
        } catch (IllegalArgumentException e) {
            plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no such object", false);
            return;
        }
        Optional<Directory.Lease> lease = directory.open(name);
        if (lease.isEmpty()) {
            if (!directory.list(name + "/").isEmpty()) {
                FullHttpResponse moved = text(HttpResponseStatus.MOVED_PERMANENTLY, "a folder: " + name + "/");
                moved.headers().set(HttpHeaderNames.LOCATION, name + "/");
                send(ctx, request, moved, false);
            } else {
                plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no object is named " + name, false);
            }
            return;
        }
        serve(ctx, request, lease.get().object(), lease.get());
    }

    private void serve(ChannelHandlerContext ctx, FullHttpRequest request, MediaObject object, Directory.Lease lease) {
        Representation target = new Representation(object.size(), object.etag(), object.modifiedMs());
        Outcome outcome = ConditionalRequests.evaluate(request.method().name(), request.headers()::get, target);
        HttpResponseStatus status = HttpResponseStatus.valueOf(outcome.status());
        boolean head = request.method().equals(HttpMethod.HEAD);
        if (outcome.status() == 304 || outcome.status() == 412 || outcome.status() == 416) {
            lease.close();
            FullHttpResponse response = outcome.status() == 304
                ? new DefaultFullHttpResponse(request.protocolVersion(), status)
                : text(status, outcome.status() == 412 ? "a precondition failed" : "no requested range is satisfiable");
            validators(response, object);
            if (outcome.status() == 416) {
                response.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + object.size());
            }
            send(ctx, request, response, false);
            return;
        }
        HttpResponse response = new DefaultHttpResponse(request.protocolVersion(), status);
        validators(response, object);
        List<Segment> body = new ArrayList<>();
        if (outcome.whole()) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, object.mimeType());
            body.add(Segment.range(0, object.size()));
        } else if (!outcome.multipart()) {
            ByteRangeSpec range = outcome.ranges().get(0);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, object.mimeType());
            response.headers().set(HttpHeaderNames.CONTENT_RANGE, range.contentRange(object.size()));
            body.add(Segment.range(range.first(), range.length()));
        } else {
            String boundary = "rondo-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "multipart/byteranges; boundary=" + boundary);
            for (ByteRangeSpec range : outcome.ranges()) {
                body.add(Segment.literal("\r\n--" + boundary + "\r\nContent-Type: " + object.mimeType()
                    + "\r\nContent-Range: " + range.contentRange(object.size()) + "\r\n\r\n"));
                body.add(Segment.range(range.first(), range.length()));
            }
            body.add(Segment.literal("\r\n--" + boundary + "--\r\n"));
        }
        long length = body.stream().mapToLong(Segment::length).sum();
        HttpUtil.setContentLength(response, length);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keepAlive);
        if (head || length == 0) {
            lease.close();
            ctx.write(response);
            closeUnlessKeptAlive(ctx, ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT), keepAlive);
            return;
        }
        ctx.write(response);
        if (hot.cacheable(object)) {
            byte[] cached = hot.lookUp(object);
            if (cached != null) {
                lease.close();
                hot.servedFromMemory(body.stream().filter(segment -> segment.literal() == null)
                    .mapToLong(Segment::length).sum());
                writeFromMemory(ctx, cached, body, keepAlive);
                return;
            }
            transfer = new Fill(ctx, object, body, keepAlive, lease);
        } else {
            transfer = new Transfer(ctx, object, body, keepAlive, lease);
        }
        transfer.pump();
    }

    /**
     * Writes a whole body from an object's bytes and ends the response; returns how many of the
     * object's bytes it sent. The bytes are shared, never changed: Netty only reads them.
     */
    private static void writeFromMemory(ChannelHandlerContext ctx, byte[] object, List<Segment> body,
                                        boolean keepAlive) {
        for (Segment segment : body) {
            if (segment.literal() != null) {
                ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(segment.literal())));
            } else {
                ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(object, (int) segment.offset(),
                    (int) segment.length())));
            }
        }
        closeUnlessKeptAlive(ctx, ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT), keepAlive);
    }

    private void folder(ChannelHandlerContext ctx, FullHttpRequest request, String path) {
        String folder;
        try {
            folder = ObjectNames.folder(path);
        } catch (IllegalArgumentException e) {
            plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no such folder", false);
            return;
        }
        List<Directory.Entry> entries = directory.list(folder);
        if (entries.isEmpty() && !folder.equals("/")) {
            plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no folder " + folder, false);
            return;
        }
        byte[] page = FolderPage.render(folder, entries).getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
            request.method().equals(HttpMethod.HEAD) ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(page));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
        HttpUtil.setContentLength(response, page.length);
        send(ctx, request, response, false);
    }

    /** An object's {@link MediaInfo}, for the player: from the catalog, no disk read. */
    private void info(ChannelHandlerContext ctx, FullHttpRequest request, String name) {
        Optional<Directory.Lease> lease;
        try {
            lease = directory.open(ObjectNames.normalize(name));
        } catch (IllegalArgumentException e) {
            lease = Optional.empty();
        }
        if (lease.isEmpty()) {
            plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no object is named " + name, false);
            return;
        }
        byte[] json;
        try (Directory.Lease held = lease.get()) {
            json = MediaInfo.render(held.object());
        }
        FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
            Unpooled.wrappedBuffer(json));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
        HttpUtil.setContentLength(response, json.length);
        send(ctx, request, response, false);
    }

    private static void validators(HttpResponse response, MediaObject object) {
        response.headers().set(HttpHeaderNames.ETAG, object.etag());
        response.headers().set(HttpHeaderNames.LAST_MODIFIED,
            HTTP_DATE.format(Instant.ofEpochMilli(object.modifiedMs())));
        response.headers().set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES);
    }

    private static FullHttpResponse text(HttpResponseStatus status, String message) {
        byte[] body = (status.code() + " " + status.reasonPhrase() + ": " + message + "\n")
            .getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(io.netty.handler.codec.http.HttpVersion.HTTP_1_1,
            status, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        HttpUtil.setContentLength(response, body.length);
        return response;
    }

    private static void plain(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
                              String message, boolean close) {
        send(ctx, request, text(status, message), close);
    }

    private static void send(ChannelHandlerContext ctx, FullHttpRequest request, FullHttpResponse response,
                             boolean close) {
        boolean keepAlive = !close && HttpUtil.isKeepAlive(request);
        if (request.method().equals(HttpMethod.HEAD)) {
            int length = response.content().readableBytes();
            response.content().clear();
            HttpUtil.setContentLength(response, length);
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        closeUnlessKeptAlive(ctx, ctx.writeAndFlush(response), keepAlive);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            if (transfer != null) {
                transfer.pump();
            } else {
                answerWaiting(ctx);
            }
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (transfer != null) {
            transfer.abandon();
            transfer = null;
        }
        FullHttpRequest request;
        while ((request = waiting.poll()) != null) {
            request.release();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent && transfer == null) {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private void transferDone(ChannelHandlerContext ctx) {
        transfer = null;
        answerWaiting(ctx);
    }

    /** A piece of a response body: literal bytes (multipart headers) or a byte range of the object. */
    private record Segment(byte[] literal, long offset, long length) {
        static Segment literal(String text) {
            byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
            return new Segment(bytes, 0, bytes.length);
        }

        static Segment range(long offset, long length) {
            return new Segment(null, offset, length);
        }
    }

    /** A response body on its way; later pipelined requests wait until it is sent. */
    /**
     * A response body on its way, read from the disks a chunk at a time: what both kinds of body
     * share (reading a chunk back onto the event loop, failing or stopping cleanly).
     */
    private abstract class Sending {
        final ChannelHandlerContext ctx;
        final MediaObject object;
        final List<Segment> segments;
        final boolean keepAlive;
        final Directory.Lease lease;
        boolean reading;
        boolean abandoned;

        Sending(ChannelHandlerContext ctx, MediaObject object, List<Segment> segments, boolean keepAlive,
                Directory.Lease lease) {
            this.ctx = ctx;
            this.object = object;
            this.segments = segments;
            this.keepAlive = keepAlive;
            this.lease = lease;
        }

        /** Goes on: called once the channel is writable again. */
        abstract void pump();

        /** A chunk read for this body; its buffer is this method's to release. */
        abstract void arrived(Chunk chunk);

        /** Reads the next chunk of the object; it arrives on the event loop. */
        final void read(long offset, int want) {
            reading = true;
            disks.read(object, offset, want).whenCompleteAsync(this::completed, ctx.executor());
        }

        private void completed(Chunk chunk, Throwable error) {
            reading = false;
            if (abandoned || error != null || chunk.data().remaining() == 0) {
                if (chunk != null) {
                    chunk.release();
                }
                if (!abandoned) {
                    lease.close();
                    ctx.close();
                }
                return;
            }
            arrived(chunk);
        }

        /** The connection closed: stop, and return what is held. */
        final void abandon() {
            abandoned = true;
            lease.close();
        }
    }

    /**
     * The body of a small object not in {@link HotObjects}: reads the object whole, a chunk at a
     * time, writes the body from those bytes and caches them.
     */
    private final class Fill extends Sending {
        private final byte[] bytes;
        private int filled;

        Fill(ChannelHandlerContext ctx, MediaObject object, List<Segment> segments, boolean keepAlive,
             Directory.Lease lease) {
            super(ctx, object, segments, keepAlive, lease);
            this.bytes = new byte[(int) object.size()];
        }

        @Override
        void pump() {
            if (!reading && !abandoned) {
                read(filled, Math.min(DiskRuntime.CHUNK_BYTES, bytes.length - filled));
            }
        }

        @Override
        void arrived(Chunk chunk) {
            int read = Math.min(chunk.data().remaining(), bytes.length - filled);
            chunk.data().get(bytes, filled, read);
            chunk.release();
            filled += read;
            if (filled < bytes.length) {
                pump();
                return;
            }
            lease.close();
            writeFromMemory(ctx, bytes, segments, keepAlive);
            hot.put(object, bytes);
            transferDone(ctx);
        }
    }

    /** One response body on its way: read a chunk, write it, read the next while the channel is writable. */
    private final class Transfer extends Sending {
        private int segment;
        private long done;

        Transfer(ChannelHandlerContext ctx, MediaObject object, List<Segment> segments, boolean keepAlive,
                 Directory.Lease lease) {
            super(ctx, object, segments, keepAlive, lease);
        }

        @Override
        void pump() {
            while (!reading && !abandoned && ctx.channel().isWritable()) {
                if (segment == segments.size()) {
                    finish();
                    return;
                }
                Segment current = segments.get(segment);
                if (current.literal() != null) {
                    ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(current.literal())));
                    segment++;
                    continue;
                }
                read(current.offset() + done, (int) Math.min(DiskRuntime.CHUNK_BYTES, current.length() - done));
                ctx.flush();
            }
        }

        @Override
        void arrived(Chunk chunk) {
            ByteBuf bytes = Unpooled.wrappedBuffer(chunk.data());
            int read = bytes.readableBytes();
            ctx.write(new DefaultHttpContent(bytes)).addListener(future -> chunk.release());
            done += read;
            if (done == segments.get(segment).length()) {
                segment++;
                done = 0;
            }
            pump();
        }

        private void finish() {
            lease.close();
            closeUnlessKeptAlive(ctx, ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT), keepAlive);
            transferDone(ctx);
        }
    }

    /** Closes the connection once the last write is done, unless it is kept alive. */
    private static void closeUnlessKeptAlive(ChannelHandlerContext ctx, ChannelFuture last, boolean keepAlive) {
        if (!keepAlive) {
            last.addListener(ChannelFutureListener.CLOSE);
        }
    }
}
