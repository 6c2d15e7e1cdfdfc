package io.rondo.benchmarks.load.stream;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.rondo.benchmarks.load.stream.LoadResults.Outcome;
import io.rondo.benchmarks.load.stream.LoadResults.StreamRecord;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.LongSupplier;

/**
 * Runs the players of a stream load: opens {@link LoadSettings#streams()} connections spread
 * evenly over the ramp, each with a {@link PlayerHandler}, on a few event-loop threads; prints a
 * progress line every few seconds; and waits until every stream has ended (END, its --duration,
 * REJECT, ERROR, a broken connection) or the run overruns, when it stops the rest. It also times
 * its own event loops, since a client that falls behind its sockets would see fragments late that
 * the server sent on time.
 */
public final class LoadRun {

    /** How often each client event loop is asked to run a timer, to measure its own delay. */
    static final long LOOP_PROBE_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private static final long PROGRESS_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long WAIT_STEP_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** How long past ramp + duration + CLOSE's grace the run waits for streams before stopping them. */
    private static final long OVERRUN_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long STOP_WAIT_NS = TimeUnit.SECONDS.toNanos(3);
    private static final int CONNECT_TIMEOUT_MS = 10_000;

    private final LoadSettings settings;
    private final LongSupplier nanoClock;
    private final PrintStream progress;
    private final List<PlayerHandler> players = new CopyOnWriteArrayList<>();
    private final AtomicIntegerArray claimed;
    private volatile FragmentListener listener = FragmentListener.NONE;
    private volatile int reconnects;
    private volatile boolean stopping;
    private volatile LoadResults results;

    /**
     * @param settings what to run
     * @param nanoClock the monotonic clock every measurement reads
     * @param progress where the progress lines go; null for none
     */
    public LoadRun(LoadSettings settings, LongSupplier nanoClock, PrintStream progress) {
        this.settings = settings;
        this.nanoClock = nanoClock;
        this.progress = progress;
        this.claimed = new AtomicIntegerArray(settings.streams());
    }

    /**
     * Runs the load to its end, or until {@link #stop()}.
     *
     * @return what the players saw
     */
    public LoadResults run() throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(settings.threads(),
            new DefaultThreadFactory("rondo-load", true), NioIoHandler.newFactory());
        try {
            long startNs = nanoClock.getAsLong();
            long lengthNs = settings.rampNs() + settings.durationNs();
            LoadResults gathered = new LoadResults(settings.streams(), startNs, lengthNs);
            results = gathered;
            Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS);
            for (EventExecutor loop : group) {
                probe(loop, gathered, startNs + LOOP_PROBE_NS);
            }
            for (int i = 0; i < settings.streams(); i++) {
                int index = i;
                group.schedule(() -> connect(bootstrap, gathered, index), settings.openAtNs(i), TimeUnit.NANOSECONDS);
            }
            long overrunAtNs = startNs + lengthNs + PlayerHandler.CLOSE_GRACE_NS + OVERRUN_NS;
            long nextProgressNs = startNs + PROGRESS_NS;
            while (!gathered.awaitAllEnded(WAIT_STEP_NS)) {
                long nowNs = nanoClock.getAsLong();
                if (stopping || nowNs - overrunAtNs >= 0) {
                    if (progress != null && !stopping) {
                        progress.println("StreamLoad: the run overran; stopping the streams still open");
                    }
                    stopAll(gathered);
                    gathered.awaitAllEnded(STOP_WAIT_NS);
                    break;
                }
                if (nowNs - nextProgressNs >= 0) {
                    printProgress(gathered, nowNs);
                    nextProgressNs += PROGRESS_NS;
                }
            }
            return gathered;
        } finally {
            stopping = true;
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        }
    }

    /** Tells {@code fragmentListener} of every DATA the players receive; set it before {@link #run()}. */
    public void listen(FragmentListener fragmentListener) {
        this.listener = fragmentListener;
    }

    /**
     * How many connections a player tries after its connection is lost mid-stream before its stream
     * is lost (default 0: never); set it before {@link #run()}. Players follow REDIRECT whatever it is.
     */
    public void reconnect(int attempts) {
        this.reconnects = attempts;
    }

    /** Ends the run early (Ctrl-C): open streams are stopped, unopened ones never open. */
    public void stop() {
        stopping = true;
    }

    private void connect(Bootstrap bootstrap, LoadResults gathered, int index) {
        if (stopping || !claimed.compareAndSet(index, 0, 1)) {
            return;
        }
        PlayerHandler player = new PlayerHandler(index, settings, gathered, nanoClock, listener,
            (host, port, loop, again) -> connect(bootstrap.clone(loop), host, port, again), reconnects);
        players.add(player);
        connect(bootstrap.clone(), settings.host(), settings.port(), player);
    }

    private static void connect(Bootstrap bootstrap, String host, int port, PlayerHandler player) {
        ChannelFuture connecting = bootstrap.handler(player).connect(host, port);
        connecting.addListener(done -> {
            if (!done.isSuccess()) {
                player.connectFailed(done.cause());
            }
        });
    }

    private void stopAll(LoadResults gathered) {
        stopping = true;
        for (int i = 0; i < settings.streams(); i++) {
            if (claimed.compareAndSet(i, 0, 1)) {
                gathered.streamEnded(StreamRecord.unopened(i, Outcome.STOPPED, "never opened: the run was stopped"));
                listener.ended(i);
            }
        }
        players.forEach(PlayerHandler::stop);
    }

    /** Times the event loop: a timer due every {@link #LOOP_PROBE_NS}, and how late it runs. */
    private void probe(EventExecutor loop, LoadResults gathered, long dueNs) {
        if (stopping) {
            return;
        }
        long delayNs = Math.max(0, dueNs - nanoClock.getAsLong());
        loop.schedule(() -> {
            long nowNs = nanoClock.getAsLong();
            gathered.loopDelay(nowNs - dueNs, nowNs);
            probe(loop, gathered, nowNs + LOOP_PROBE_NS);
        }, delayNs, TimeUnit.NANOSECONDS);
    }

    private void printProgress(LoadResults gathered, long nowNs) {
        if (progress == null) {
            return;
        }
        long[] perSecond = gathered.bytesBySecond();
        int second = (int) ((nowNs - gathered.runStartNs()) / 1_000_000_000L);
        long lastSecondBytes = second >= 1 && second - 1 < perSecond.length ? perSecond[second - 1] : 0;
        Lateness lateness = gathered.lateness();
        progress.printf(Locale.ROOT, "StreamLoad %4d s: %d of %d opened, %d admitted, %d ended; %d fragments, %d late;"
                + " %.1f Mbit/s%n", second, gathered.openedSoFar(), settings.streams(), gathered.admittedSoFar(),
            gathered.endedSoFar(), lateness.count(), lateness.lateCount(), lastSecondBytes * 8 / 1e6);
    }
}
