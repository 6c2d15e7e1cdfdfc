package io.rondo.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Aggregates each request with its body up to {@code http.maxBody}, and makes a request whose body
 * is larger (by its Content-Length, or as its chunks arrive) a refused one: it goes on as a failed
 * request ({@link RefusedRequest}, 413), answered in its turn after the answers pipelined before
 * it, and its answer closes the connection, lingering ({@link LingeringClose}) so that the body the
 * client is still sending cannot reset the 413 away. Netty's own answer would be written at once,
 * kept the connection open, and left the request's deadline to end it with a 408.
 *
 * <p>A request without a body (a GET, a HEAD: no Content-Length but 0, no Transfer-Encoding, no
 * Expect), followed at once by the codec's empty end, goes on as a whole request of its own head
 * and no content, as the aggregation would have made it ({@code Content-Length: 0} where it had
 * none), without the aggregation's buffer.
 */
final class BodyLimitAggregator extends HttpObjectAggregator {

    /** A request without a body, held until the end the codec sends right after it. */
    private HttpRequest bodiless;

    BodyLimitAggregator(int maxBodyBytes) {
        super(maxBodyBytes, true);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (bodiless != null) {
            HttpRequest request = bodiless;
            bodiless = null;
            if (msg instanceof LastHttpContent end && !end.content().isReadable() && end.trailingHeaders().isEmpty()
                && end.decoderResult().isSuccess()) {
                end.release();
                ctx.fireChannelRead(whole(request));
                return;
            }
            super.channelRead(ctx, request);
        }
        if (msg instanceof HttpRequest request && !(msg instanceof FullHttpRequest)
            && request.decoderResult().isSuccess() && hasNoBody(request.headers())) {
            bodiless = request;
            return;
        }
        super.channelRead(ctx, msg);
    }

    private static boolean hasNoBody(HttpHeaders headers) {
        String length = headers.get(HttpHeaderNames.CONTENT_LENGTH);
        return (length == null || length.equals("0")) && !headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
            && !headers.contains(HttpHeaderNames.EXPECT);
    }

    private static FullHttpRequest whole(HttpRequest request) {
        HttpHeaders headers = request.headers();
        if (!headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        }
        FullHttpRequest whole = new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(),
            Unpooled.EMPTY_BUFFER, headers, EmptyHttpHeaders.INSTANCE);
        whole.setDecoderResult(request.decoderResult());
        return whole;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) throws Exception {
        if (!(oversized instanceof HttpRequest request)) {
            super.handleOversizedMessage(ctx, oversized);
            return;
        }
        FullHttpRequest refused = new DefaultFullHttpRequest(request.protocolVersion(), request.method(),
            request.uri(), Unpooled.EMPTY_BUFFER);
        refused.headers().set(request.headers());
        refused.setDecoderResult(DecoderResult.failure(new RefusedRequest(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
            "the request's body is larger than " + maxContentLength() + " bytes (http.maxBody)")));
        ctx.fireChannelRead(refused);
    }
}
