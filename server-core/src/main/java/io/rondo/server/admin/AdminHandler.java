package io.rondo.server.admin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.rondo.server.observe.RondoMetrics;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One admin connection, a request at a time, in order: its target matched to a {@link Route}
 * ({@link RequestTarget}, {@link AdminRouter}), its token checked against the route's scope
 * ({@link AdminAuthentication}), its body gathered whole ({@link RequestBody}) or pumped into an
 * upload's sink ({@link UploadPump}), its action run, and the reply or the problem written in a type
 * the request accepts ({@link AcceptNegotiation}, {@link ReplyWriter}). Each request's time, by the
 * {@link NanoClock} it is given, goes to the metrics.
 */
final class AdminHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);

    private final AdminRouter router;
    private final AdminAuthentication authentication;
    private final RondoMetrics metrics;
    private final long maxUploadBytes;
    private final NanoClock clock;
    private final UploadPump.Listener uploadListener = new UploadPump.Listener() {
        @Override
        public void tooLarge(Problem problem) {
            keepAlive = false;
            refuse(problem);
        }

        @Override
        public void failed(Throwable failure) {
            keepAlive = false;
            answer(null, failure);
        }

        @Override
        public void finished(ApiReply reply, Throwable failure) {
            answer(reply, failure);
        }

        @Override
        public void answeredEarly(ApiReply reply, Throwable failure) {
            keepAlive = false;
            answer(reply, failure);
        }
    };

    private ChannelHandlerContext ctx;
    private InetSocketAddress remote;
    private boolean closing;
    private boolean streaming;

    /* The request being answered. */
    private HttpRequest request;
    private RequestTarget target;
    private AdminRouter.Match match;
    private Scope scope;
    private long startNs;
    private boolean keepAlive;
    private boolean discarding;
    private RequestBody body;
    private UploadPump upload;

    /**
     * @param router         the routes
     * @param tokens         the bearer tokens
     * @param metrics        where each request's time goes
     * @param maxUploadBytes the largest upload (admin.maxUpload)
     * @param clock          the clock of the requests' times
     */
    AdminHandler(AdminRouter router, AdminTokens tokens, RondoMetrics metrics, long maxUploadBytes, NanoClock clock) {
        this.router = router;
        this.authentication = new AdminAuthentication(tokens);
        this.metrics = metrics;
        this.maxUploadBytes = maxUploadBytes;
        this.clock = clock;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
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
                begin(head);
            }
            if (msg instanceof HttpContent content) {
                if (upload != null && upload.open()) {
                    upload.offer(content);
                } else {
                    content(content);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void begin(HttpRequest head) {
        request = head;
        startNs = clock.nanoTime();
        keepAlive = HttpUtil.isKeepAlive(head);
        discarding = false;
        match = null;
        body = new RequestBody();
        if (head.decoderResult().isFailure()) {
            keepAlive = false;
            refuse(MalformedRequest.problem(head.decoderResult().cause()));
            return;
        }
        try {
            target = RequestTarget.of(head.uri());
            match = router.match(head.method().name(), target.path(), target.segments());
            Route route = match.route();
            scope = authentication.authorize(head.headers(), route);
            Problem tooLarge = RequestBody.declaredTooLarge(head, route, maxUploadBytes);
            if (tooLarge != null) {
                keepAlive = false;
                throw tooLarge;
            }
            if (route.upload() != null) {
                upload = new UploadPump(ctx, route.upload().open(apiRequest(new byte[0]), ctx.executor()),
                    route.live() ? Long.MAX_VALUE : maxUploadBytes, uploadListener);
                upload.start();
            }
            if (HttpUtil.is100ContinueExpected(head)) {
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
            }
        } catch (Problem problem) {
            if (HttpUtil.is100ContinueExpected(head) || HttpUtil.getContentLength(head, 0L) > RequestBody.MAX_BODY
                || match != null && match.route().live()) {
                keepAlive = false;
            }
            refuse(problem);
        } catch (Exception e) {
            LOG.warn("admin: {} {} failed", head.method(), head.uri(), e);
            refuse(Problem.internal());
        }
    }

    private void content(HttpContent content) {
        if (discarding || match == null) {
            return;
        }
        if (!body.append(content.content())) {
            keepAlive = false;
            refuse(RequestBody.tooLarge());
            return;
        }
        if (content instanceof LastHttpContent) {
            run();
        }
    }

    private void run() {
        CompletableFuture<ApiReply> reply;
        try {
            reply = match.route().action().handle(apiRequest(body.bytes()));
        } catch (Exception e) {
            reply = CompletableFuture.failedFuture(e);
        }
        discarding = true;
        reply.whenComplete((done, failure) -> ctx.executor().execute(() -> answer(done, failure)));
    }

    private ApiRequest apiRequest(byte[] bytes) {
        return new ApiRequest(request.method().name(), target.path(), match.variables(), target.query(),
            request.headers(), bytes, remote, scope);
    }

    private void refuse(Problem problem) {
        discarding = true;
        write(ApiReply.problem(problem));
    }

    private void answer(ApiReply reply, Throwable failure) {
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
        write(reply);
    }

    private void write(ApiReply reply) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (upload != null && upload.open()) {
            upload.abort();
            keepAlive = false;
        }
        ctx.channel().config().setAutoRead(true);
        reply = AcceptNegotiation.negotiate(request.headers().get(HttpHeaderNames.ACCEPT), reply);
        metrics.httpRequest("admin", match == null ? "unmatched" : match.route().template(),
            request.method().name(), reply.status(), clock.nanoTime() - startNs);
        if (reply.events() != null) {
            streaming = true;
            ReplyWriter.startEventStream(ctx, reply);
            return;
        }
        ReplyWriter.write(ctx, reply, keepAlive, () -> closing = true);
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
        if (upload != null && match != null && match.route().live()) {
            upload.left();
        } else if (upload != null) {
            upload.abort();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("admin connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
