package io.rondo.server.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Whether a connection persists after an answer (RFC 9112 Section 9.3), as Netty's
 * {@code HttpServerKeepAliveHandler} decides it, with two differences: a connection that does not
 * persist ends lingering ({@link LingeringClose}), so a client still sending a refused body reads
 * its answer rather than a reset; and a 304 keeps the connection, since it never has a body
 * (Section 6.3), so revalidating a cached object costs no new connection.
 *
 * <p>The connection persists while every request asked it to and every answer can be told apart
 * from the next by its framing (a Content-Length, chunks, or a status that never has a body); once one
 * cannot, the answer says {@code Connection: close} and the connection ends after its last answer.
 */
final class KeepAliveHandler extends ChannelDuplexHandler {

    private boolean persistent = true;
    private int pending;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request && persistent) {
            pending++;
            persistent = HttpUtil.isKeepAlive(request);
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        ChannelPromise written = promise;
        if (msg instanceof HttpResponse response) {
            if (response.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
                pending--;
            }
            if (!HttpUtil.isKeepAlive(response) || !framed(response)) {
                pending = 0;
                persistent = false;
            }
            if (ending()) {
                HttpUtil.setKeepAlive(response, false);
            }
        }
        if (msg instanceof LastHttpContent && ending()) {
            written = promise.unvoid();
            written.addListener(LingeringClose.AFTER_WRITE);
        }
        super.write(ctx, msg, written);
    }

    /** Whether this answer is the connection's last: it will not persist, and no answer is still due. */
    private boolean ending() {
        return !persistent && pending == 0;
    }

    /** Whether the client can tell where the answer ends without the connection's end. */
    private static boolean framed(HttpResponse response) {
        int status = response.status().code();
        return HttpUtil.isContentLengthSet(response) || HttpUtil.isTransferEncodingChunked(response)
            || response.status().codeClass() == HttpStatusClass.INFORMATIONAL
            || status == HttpResponseStatus.NO_CONTENT.code() || status == HttpResponseStatus.NOT_MODIFIED.code();
    }
}
