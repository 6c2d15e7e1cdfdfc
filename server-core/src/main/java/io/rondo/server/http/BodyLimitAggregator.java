package io.rondo.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Aggregates each request with its body up to {@code http.maxBody}, and makes a request whose body
 * is larger (by its Content-Length, or as its chunks arrive) a refused one: it goes on as a failed
 * request ({@link RefusedRequest}, 413), answered in its turn after the answers pipelined before
 * it, and its answer closes the connection, lingering ({@link LingeringClose}) so that the body the
 * client is still sending cannot reset the 413 away. Netty's own answer would be written at once,
 * kept the connection open, and left the request's deadline to end it with a 408.
 */
final class BodyLimitAggregator extends HttpObjectAggregator {

    BodyLimitAggregator(int maxBodyBytes) {
        super(maxBodyBytes, true);
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
