package io.rondo.server.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetSocketAddress;

/** The network transport both servers listen with: epoll where the native transport loads, NIO otherwise. */
public final class Transport {

    private Transport() {
    }

    /** Whether the native epoll transport is in use. */
    public static boolean epoll() {
        return Epoll.isAvailable();
    }

    /** Event loops of daemon threads named {@code name-N}; 0 threads means Netty's default. */
    public static EventLoopGroup group(int threads, String name) {
        IoHandlerFactory io = epoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), io);
    }

    /** The server channel class of the transport in use. */
    public static Class<? extends ServerChannel> serverChannel() {
        return epoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /**
     * Binds and waits; a port that cannot be had is an {@link IllegalStateException} naming it and
     * the command-line option that chooses another.
     */
    public static Channel bind(ServerBootstrap bootstrap, InetSocketAddress address, String what, String option)
        throws InterruptedException {
        ChannelFuture bound = bootstrap.bind(address).await();
        if (!bound.isSuccess()) {
            throw new IllegalStateException("cannot listen" + what + " on " + address.getHostString() + ":"
                + address.getPort() + ": " + bound.cause().getMessage() + " (is another server using the port? "
                + "choose one with " + option + ")", bound.cause());
        }
        return bound.channel();
    }

    /**
     * Answers a connection with {@code answer} once it is active, then closes it; what the peer
     * sends meanwhile is dropped. Call from an initializer in place of a pipeline.
     */
    public static void answerAndClose(Channel channel, ByteBuf answer) {
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ReferenceCountUtil.release(msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ctx.close();
            }
        });
    }
}
