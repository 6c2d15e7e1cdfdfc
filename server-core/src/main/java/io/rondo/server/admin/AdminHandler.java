package io.rondo.server.admin;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.http.RefusedRequest;
import io.rondo.server.observe.RondoMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One admin connection: each request matched to its {@link Route}, its token checked against the
 * route's scope, its body read (whole up to {@link #MAX_BODY} bytes, or streamed to an upload's
 * sink with the connection's reads paused until each piece is written), its action run, and the
 * reply or the problem written. Requests on a connection are answered in order, one at a time.
 */
final class AdminHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);
    /** How long a connection being closed reads and drops what its client still sends. */
    private static final long LINGER_MS = 2_000;

    /** The largest body a route that is no upload takes: policies and moves are small. */
    static final int MAX_BODY = 1 << 20;

    private final AdminRouter router;
    private final AdminTokens tokens;
    private final RondoMetrics metrics;
    private final long maxUploadBytes;

    /** A request's decoded path and its query. */
    private record PathAndQuery(String path, Map<String, List<String>> query) {
    }

    private HttpRequest request;
    private PathAndQuery pathAndQuery;
    private AdminRouter.Match match;
    private Scope scope;
    private long startNs;
    private boolean keepAlive;
    private boolean discarding;
    private boolean closing;
    private ByteArrayOutputStream body;
    private Route.UploadSink upload;
    private long uploaded;
    private final ArrayDeque<HttpContent> pending = new ArrayDeque<>();
    private boolean writing;
    private boolean streaming;
    private InetSocketAddress remote;

    AdminHandler(AdminRouter router, AdminTokens tokens, RondoMetrics metrics, long maxUploadBytes) {
        this.router = router;
        this.tokens = tokens;
        this.metrics = metrics;
        this.maxUploadBytes = maxUploadBytes;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        remote = (InetSocketAddress) ctx.channel().remoteAddress();
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (closing) {
                return;
            }
            if (msg instanceof HttpRequest head) {
                begin(ctx, head);
            }
            if (msg instanceof HttpContent content) {
                if (upload != null) {
                    pending.add(content.retain());
                    drain(ctx);
                } else {
                    content(ctx, content);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void begin(ChannelHandlerContext ctx, HttpRequest head) {
        request = head;
        startNs = System.nanoTime();
        keepAlive = HttpUtil.isKeepAlive(head);
        discarding = false;
        match = null;
        body = new ByteArrayOutputStream();
        uploaded = 0;
        if (head.decoderResult().isFailure()) {
            keepAlive = false;
            refuse(ctx, malformed(head.decoderResult().cause()));
            return;
        }
        try {
            QueryStringDecoder uri = new QueryStringDecoder(head.uri());
            String rawPath = uri.rawPath();
            List<String> segments = new ArrayList<>();
            for (String segment : Route.split(rawPath)) {
                // A '+' in a path is itself, as the HTTP port reads it; only a query's '+' is a space.
                segments.add(QueryStringDecoder.decodeComponent(segment.replace("+", "%2B")));
            }
            String path = "/" + String.join("/", segments);
            match = router.match(head.method().name(), path, segments);
            scope = tokens.scopeOf(head.headers().get(HttpHeaderNames.AUTHORIZATION));
            Route route = match.route();
            if (!scope.allows(route.scope())) {
                throw scope == Scope.PUBLIC ? Problem.unauthorized("this resource needs a bearer token: "
                    + "Authorization: Bearer TOKEN", false)
                    : Problem.forbidden("this needs the admin token; the read token only reads");
            }
            long declared = HttpUtil.getContentLength(head, -1L);
            long limit = route.upload() != null ? maxUploadBytes : MAX_BODY;
            if (declared > limit) {
                keepAlive = false;
                throw Problem.payloadTooLarge("the body of " + declared + " bytes is larger than the limit of "
                    + limit + " bytes" + (route.upload() != null ? " (admin.maxUpload)" : ""));
            }
            if (route.upload() != null) {
                upload = route.upload().open(apiRequest(path, uri.parameters(), new byte[0]));
                ctx.channel().config().setAutoRead(false);
                // The body's first piece: it may not have come with the head (a client waiting for 100 Continue).
                ctx.read();
            }
            if (HttpUtil.is100ContinueExpected(head)) {
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
            }
            pathAndQuery = new PathAndQuery(path, uri.parameters());
        } catch (Problem problem) {
            if (HttpUtil.is100ContinueExpected(head) || HttpUtil.getContentLength(head, 0L) > MAX_BODY) {
                keepAlive = false;
            }
            refuse(ctx, problem);
        } catch (Exception e) {
            LOG.warn("admin: {} {} failed", head.method(), head.uri(), e);
            refuse(ctx, Problem.internal());
        }
    }

    /**
     * The problem of a request the codec or RFC 9112's rules refused, with the status the HTTP port
     * gives it: 414 for a long request line, 431 for long headers, the rule's own (501, 505), and
     * 400 ({@code invalid-request}) for a bad Host and anything else that is not HTTP/1.1.
     */
    static Problem malformed(Throwable cause) {
        if (cause instanceof RefusedRequest refused) {
            return refused.status().code() == HttpResponseStatus.BAD_REQUEST.code()
                ? Problem.invalid(null, refused.getMessage())
                : Problem.malformed(refused.status().code(), refused.getMessage());
        }
        if (cause instanceof TooLongHttpLineException) {
            return Problem.malformed(414, "the request line is longer than " + HttpSettings.DEFAULT_MAX_REQUEST_LINE
                + " bytes");
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return Problem.malformed(431, "the headers are longer than " + HttpSettings.DEFAULT_MAX_HEADERS
                + " bytes");
        }
        return Problem.invalid(null, "the request is not valid HTTP/1.1: " + cause.getMessage());
    }

    private void content(ChannelHandlerContext ctx, HttpContent content) {
        if (discarding || match == null) {
            return;
        }
        ByteBuf bytes = content.content();
        if (body.size() + bytes.readableBytes() > MAX_BODY) {
            keepAlive = false;
            refuse(ctx, Problem.payloadTooLarge("a body of this resource is at most " + MAX_BODY + " bytes"));
            return;
        }
        byte[] piece = new byte[bytes.readableBytes()];
        bytes.readBytes(piece);
        body.write(piece, 0, piece.length);
        if (content instanceof LastHttpContent) {
            run(ctx);
        }
    }

    private void run(ChannelHandlerContext ctx) {
        CompletableFuture<ApiReply> reply;
        try {
            reply = match.route().action().handle(apiRequest(pathAndQuery.path(), pathAndQuery.query(),
                body.toByteArray()));
        } catch (Exception e) {
            reply = CompletableFuture.failedFuture(e);
        }
        discarding = true;
        reply.whenComplete((done, failure) -> ctx.executor().execute(() -> answer(ctx, done, failure)));
    }

    /** Writes the next piece of an upload once the last one is written; resumes reading when all are. */
    private void drain(ChannelHandlerContext ctx) {
        if (writing || upload == null) {
            return;
        }
        HttpContent next = pending.poll();
        if (next == null) {
            ctx.read();
            return;
        }
        boolean last = next instanceof LastHttpContent;
        uploaded += next.content().readableBytes();
        if (uploaded > maxUploadBytes) {
            next.release();
            abortUpload();
            keepAlive = false;
            refuse(ctx, Problem.payloadTooLarge("the upload is larger than the limit of " + maxUploadBytes
                + " bytes (admin.maxUpload)"));
            return;
        }
        writing = true;
        Route.UploadSink sink = upload;
        sink.write(next.content()).whenComplete((ignored, failure) -> ctx.executor().execute(() -> {
            writing = false;
            if (upload != sink) {
                return;
            }
            if (failure != null) {
                abortUpload();
                keepAlive = false;
                answer(ctx, null, failure);
            } else if (last) {
                upload = null;
                ctx.channel().config().setAutoRead(true);
                sink.finish().whenComplete((done, error) -> ctx.executor().execute(() -> answer(ctx, done, error)));
            } else {
                drain(ctx);
            }
        }));
    }

    private void abortUpload() {
        Route.UploadSink sink = upload;
        upload = null;
        pending.forEach(HttpContent::release);
        pending.clear();
        if (sink != null) {
            sink.abort();
        }
    }

    private ApiRequest apiRequest(String path, Map<String, List<String>> query, byte[] bytes) {
        return new ApiRequest(request.method().name(), path, match.variables(), query, request.headers(), bytes,
            remote, scope);
    }

    private void refuse(ChannelHandlerContext ctx, Problem problem) {
        discarding = true;
        write(ctx, ApiReply.problem(problem));
    }

    private void answer(ChannelHandlerContext ctx, ApiReply reply, Throwable failure) {
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
            if (cause instanceof Problem problem) {
                reply = ApiReply.problem(problem);
            } else {
                LOG.warn("admin: {} {} failed", request.method(), request.uri(), cause);
                reply = ApiReply.problem(Problem.internal());
            }
        }
        write(ctx, reply);
    }

    private void write(ChannelHandlerContext ctx, ApiReply reply) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (upload != null) {
            abortUpload();
            keepAlive = false;
        }
        ctx.channel().config().setAutoRead(true);
        String accept = request.headers().get(HttpHeaderNames.ACCEPT);
        if (reply.contentType() != null && reply.status() < 300 && !accepts(accept, reply.contentType())) {
            reply = ApiReply.problem(Problem.notAcceptable("this resource is " + baseType(reply.contentType())
                + ", which Accept: " + accept + " does not take"));
        }
        metrics.httpRequest("admin", match == null ? "unmatched" : match.route().template(),
            request.method().name(), reply.status(), System.nanoTime() - startNs);
        if (reply.events() != null) {
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
            head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            reply.headers().forEach((name, value) -> head.headers().set(name, value));
            streaming = true;
            ctx.writeAndFlush(head);
            reply.events().attach(ctx.channel());
            return;
        }
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(reply.status()), Unpooled.wrappedBuffer(reply.body()));
        if (reply.contentType() != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        }
        reply.headers().forEach((name, value) -> response.headers().set(name, value));
        if (reply.status() != HttpResponseStatus.NOT_MODIFIED.code()) {
            HttpUtil.setContentLength(response, reply.body().length);
        }
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(written -> closeAfterAnswer(ctx));
        } else {
            ctx.writeAndFlush(response);
        }
    }

    /**
     * Ends a connection once its last answer is written. The output is shut at once, but what the
     * client still sends (the rest of a refused body) is read and dropped for a moment before the
     * connection closes: closing a socket with unread bytes makes the kernel reset it, and a client
     * still sending its body would lose the answer (a 413, say) to the reset.
     */
    private void closeAfterAnswer(ChannelHandlerContext ctx) {
        closing = true;
        if (ctx.channel() instanceof DuplexChannel duplex && duplex.isActive()) {
            duplex.shutdownOutput();
            ctx.channel().config().setAutoRead(true);
            ctx.executor().schedule(() -> {
                ctx.close();
            }, LINGER_MS, TimeUnit.MILLISECONDS);
        } else {
            ctx.close();
        }
    }

    /**
     * Whether an {@code Accept} header takes {@code contentType}: no header, {@code * / *}, the type's
     * {@code type/*} or the type itself, with a quality above zero (RFC 9110 Section 12.5.1).
     */
    static boolean accepts(String accept, String contentType) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        String type = baseType(contentType);
        String family = type.substring(0, type.indexOf('/') + 1) + "*";
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String media = parts[0].trim().toLowerCase(java.util.Locale.ROOT);
            boolean refused = false;
            for (int i = 1; i < parts.length; i++) {
                String parameter = parts[i].trim().toLowerCase(java.util.Locale.ROOT);
                if (parameter.startsWith("q=")) {
                    try {
                        refused = Double.parseDouble(parameter.substring(2)) <= 0;
                    } catch (NumberFormatException e) {
                        refused = true;
                    }
                }
            }
            if (!refused && (media.equals("*/*") || media.equals(family) || media.equals(type))) {
                return true;
            }
        }
        return false;
    }

    private static String baseType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim()
            .toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent && !streaming) {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        abortUpload();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("admin connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
