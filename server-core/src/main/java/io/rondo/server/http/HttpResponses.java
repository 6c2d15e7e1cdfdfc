package io.rondo.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

import java.nio.charset.StandardCharsets;

/**
 * How every answer ends, whoever wrote it: a HEAD gets the length a GET would have and no body,
 * the connection is kept alive only as the request asked, and closed once the last byte is
 * written otherwise ({@link LingeringClose}); an error's body is one short line a person can read.
 */
final class HttpResponses {

    private HttpResponses() {
    }

    /** A text/plain answer: the status, and why. */
    static FullHttpResponse text(HttpResponseStatus status, String message) {
        byte[] body = (status.code() + " " + status.reasonPhrase() + ": " + message + "\n")
            .getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        HttpUtil.setContentLength(response, body.length);
        return response;
    }

    /** Sends a {@link #text} answer; {@code close} ends the connection after it whatever the request asked. */
    static void plain(ChannelHandlerContext ctx, HttpRequest request, HttpResponseStatus status, String message,
                      boolean close) {
        send(ctx, request, text(status, message), close);
    }

    /** Sends a whole answer; {@code close} ends the connection after it whatever the request asked. */
    static void send(ChannelHandlerContext ctx, HttpRequest request, FullHttpResponse response, boolean close) {
        boolean keepAlive = !close && HttpUtil.isKeepAlive(request);
        if (request.method().equals(HttpMethod.HEAD)) {
            int length = response.content().readableBytes();
            response.content().clear();
            HttpUtil.setContentLength(response, length);
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        closeUnlessKeptAlive(ctx, ctx.writeAndFlush(response), keepAlive);
    }

    /** Ends an answer whose head and body are written: the last content, then the close unless kept alive. */
    static void end(ChannelHandlerContext ctx, boolean keepAlive) {
        closeUnlessKeptAlive(ctx, ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT), keepAlive);
    }

    /** Ends an answer with its whole last message (head and body in one), then the close unless kept alive. */
    static void end(ChannelHandlerContext ctx, FullHttpResponse whole, boolean keepAlive) {
        closeUnlessKeptAlive(ctx, ctx.writeAndFlush(whole), keepAlive);
    }

    private static void closeUnlessKeptAlive(ChannelHandlerContext ctx, ChannelFuture last, boolean keepAlive) {
        if (!keepAlive) {
            last.addListener(LingeringClose.AFTER_WRITE);
        }
    }
}
