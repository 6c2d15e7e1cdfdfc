package io.rondo.server.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A {@link DiscreteHandler} on an embedded channel, with no socket and no codec: requests go in
 * as Netty's objects, answers come out as them, and a body read from the disks arrives as the test
 * delivers each chunk ({@link HandedChunks}).
 */
final class EmbeddedHttp {

    /** One answer as the handler wrote it: its head, and its body's bytes. */
    record Answer(HttpResponse head, byte[] body) {

        int status() {
            return head.status().code();
        }

        String header(CharSequence name) {
            return head.headers().get(name);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * Takes a copy of each content as it is written, as a socket does: an embedded channel completes
     * a write at once, and a chunk's pooled buffer, released then, may hold the next read's bytes
     * before the test looks.
     */
    private static final class WireCopy extends ChannelOutboundHandlerAdapter {
        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof HttpContent content) {
                HttpContent copy = content.replace(Unpooled.copiedBuffer(content.content()));
                content.release();
                ctx.write(copy, promise);
            } else {
                ctx.write(msg, promise);
            }
        }
    }

    final EmbeddedChannel channel;
    final HandedChunks chunks;
    private final HotObjects hot;

    EmbeddedHttp(TestLibrary library, HotObjects hot) {
        this.hot = hot;
        this.chunks = new HandedChunks(library.disks());
        this.channel = new EmbeddedChannel(new WireCopy(), new DiscreteHandler(
            new DiscreteRouter(library.library().directory(), chunks, hot)));
    }

    /**
     * Lets the client take more, or no more, as a socket's buffer filling and draining would; the
     * handler hears of it as from a socket.
     */
    void writable(boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
        channel.runPendingTasks();
    }

    /**
     * Delivers what the disks still read for this connection, and closes it, releasing what it
     * wrote and what its hot-object cache holds.
     */
    void close() {
        while (chunks.inFlight() > 0) {
            chunks.deliverNext(channel);
        }
        channel.finishAndReleaseAll();
        hot.close();
    }

    /** A GET or HEAD (or any method) of {@code uri}, with headers as name, value, name, value. */
    static FullHttpRequest request(HttpMethod method, String uri, String... headers) {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri);
        for (int i = 0; i < headers.length; i += 2) {
            request.headers().add(headers[i], headers[i + 1]);
        }
        return request;
    }

    /** Sends a GET of {@code uri} and returns its whole answer. */
    Answer get(String uri, String... headers) {
        return exchange(request(HttpMethod.GET, uri, headers));
    }

    /** Sends a request and returns its whole answer, delivering each chunk the disks read for it. */
    Answer exchange(FullHttpRequest request) {
        channel.writeInbound(request);
        return next();
    }

    /** The next answer the handler writes, delivering chunks from the disks until its last content is out. */
    Answer next() {
        HttpResponse head = null;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            Object written = channel.readOutbound();
            if (written == null) {
                chunks.deliverNext(channel);
                continue;
            }
            if (written instanceof HttpResponse response) {
                head = response;
            }
            if (written instanceof HttpContent content) {
                body.writeBytes(ByteBufUtil.getBytes(content.content()));
                content.release();
                if (written instanceof LastHttpContent) {
                    return new Answer(head, body.toByteArray());
                }
            }
        }
    }
}
