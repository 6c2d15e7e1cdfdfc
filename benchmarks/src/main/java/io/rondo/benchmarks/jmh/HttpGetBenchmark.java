package io.rondo.benchmarks.jmh;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Discrete requests' saturation throughput as JMH measures it: {@code connections} keep-alive
 * HTTP connections on two Netty event loops, each sending its next GET (a random path of the file
 * set) as soon as the last is answered, the closed loop wrk runs. The benchmark's one thread only
 * counts: each operation is one answered request, taken {@link #BATCH} at a time, so JMH's score
 * is requests a second with its iterations, fork and error bound, and the counting costs the
 * client almost nothing. A status other than 200/206 or a lost request fails the run.
 *
 * <p>{@code rondo bench} runs it once per server, alternating, through {@code ClosedLoop}; by hand:
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar HttpGetBenchmark -p url=http://127.0.0.1:8080/ \
 *   -p paths=PATHS.txt -p connections=32
 * </pre>
 * It needs a server; with no {@code url} it fails at once, saying so.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class HttpGetBenchmark {

    /** Answers counted per operation batch: small beside an iteration's, large beside one wait's cost. */
    static final int BATCH = 500;

    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long STALL_LIMIT_NS = TimeUnit.SECONDS.toNanos(10);

    /** The server's base URL, {@code http://HOST:PORT/}. */
    @Param("")
    public String url;

    /** A file of request paths, one a line ({@code /f000.bin}). */
    @Param("")
    public String paths;

    /** How many connections the closed loop keeps busy. */
    @Param("32")
    public int connections;

    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile String firstFailure;
    private volatile boolean stopping;
    private long counted;
    private EventLoopGroup group;
    private Bootstrap bootstrap;
    private List<String> pathList;
    private String host;

    /** Reads the paths and opens the connections, which start at once. */
    @Setup(Level.Trial)
    public void start() throws IOException {
        if (url.isEmpty() || paths.isEmpty()) {
            throw new IllegalStateException("HttpGetBenchmark needs a server: -p url=http://HOST:PORT/ -p "
                + "paths=FILE (rondo bench passes both)");
        }
        URI base = URI.create(url);
        host = base.getHost();
        pathList = Files.readAllLines(Path.of(paths), StandardCharsets.UTF_8).stream()
            .filter(line -> !line.isBlank()).toList();
        if (pathList.isEmpty()) {
            throw new IllegalStateException(paths + " lists no path");
        }
        group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("rondo-bench-jmh", true),
            NioIoHandler.newFactory());
        bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .remoteAddress(host, base.getPort())
            .handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel channel) {
                    channel.pipeline().addLast(new HttpClientCodec(), new Requester(channel.hashCode()));
                }
            });
        for (int i = 0; i < connections; i++) {
            bootstrap.connect();
        }
    }

    /** Stops the loop and its event loops. */
    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        stopping = true;
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }

    /**
     * Waits for the next {@link #BATCH} answers.
     *
     * @return the answers so far, so that nothing is optimised away
     * @throws IOException if a request failed, or none was answered for 10 s
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long answers() throws IOException {
        counted += BATCH;
        long waitedNs = 0;
        long seen = answered.get();
        while (seen < counted) {
            if (failed.get() > 0) {
                throw new IOException(failed.get() + " request(s) failed at " + url + ", the first: " + firstFailure);
            }
            LockSupport.parkNanos(POLL_NS);
            long now = answered.get();
            waitedNs = now == seen ? waitedNs + POLL_NS : 0;
            if (waitedNs > STALL_LIMIT_NS) {
                throw new IOException("no answer from " + url + " for 10 s");
            }
            seen = now;
        }
        return seen;
    }

    private void fail(String why) {
        if (failed.getAndIncrement() == 0) {
            firstFailure = why;
        }
    }

    /** One connection of the closed loop: the next GET as soon as the last is answered. */
    private final class Requester extends SimpleChannelInboundHandler<HttpObject> {

        private final SplittableRandom random;
        private boolean waiting;
        private int status;
        private boolean keepAlive;

        Requester(int seed) {
            this.random = new SplittableRandom(seed);
        }

        @Override
        public void channelActive(ChannelHandlerContext context) {
            send(context);
        }

        private void send(ChannelHandlerContext context) {
            if (stopping) {
                return;
            }
            waiting = true;
            DefaultFullHttpRequest get = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
                pathList.get(random.nextInt(pathList.size())));
            get.headers().set(HttpHeaderNames.HOST, host);
            context.writeAndFlush(get, context.voidPromise());
        }

        @Override
        protected void channelRead0(ChannelHandlerContext context, HttpObject message) {
            if (message instanceof HttpResponse response) {
                status = response.status().code();
                keepAlive = HttpUtil.isKeepAlive(response);
            }
            if (message instanceof LastHttpContent) {
                waiting = false;
                if (status == 200 || status == 206) {
                    answered.incrementAndGet();
                } else {
                    fail("HTTP " + status);
                }
                if (keepAlive) {
                    send(context);
                } else {
                    context.close();
                }
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) {
            if (stopping) {
                return;
            }
            if (waiting) {
                fail("the server closed a connection with a request in flight");
            }
            // A server may end a keep-alive connection between requests (nginx's keepalive_requests): open another.
            bootstrap.connect();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            if (!stopping) {
                fail(cause.toString());
            }
            context.close();
        }
    }
}
