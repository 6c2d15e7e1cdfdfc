package io.rondo.benchmarks.preset.hls;

import io.rondo.benchmarks.load.greedy.GreedyProcess;
import io.rondo.benchmarks.load.http.HttpConnection;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one phase of the hls preset on one server: its sessions, one thread and one keep-alive
 * connection each, opening at the same seeded random moments on every server, with the greedy
 * downloaders in a process of their own beside them when asked.
 */
final class HlsPhases {

    private static final long SECOND_NS = HlsSettings.SECOND_NS;
    /** From the phase's start to its ramp's: the greedy downloaders' JVM starts and reads meanwhile. */
    private static final long LEAD_NS = 2 * SECOND_NS;
    /** How long a phase on Rondo waits for the last phase's sessions to end (its client timeout, 10 s, and more). */
    private static final long DRAIN_LIMIT_NS = 30 * SECOND_NS;
    private static final long SESSION_STACK_BYTES = 256 * 1024;

    private final HlsSettings settings;
    private final Path work;
    private final PrintStream console;
    private final NanoClock clock;

    HlsPhases(HlsSettings settings, Path work, PrintStream console, NanoClock clock) {
        this.settings = settings;
        this.work = work;
        this.console = console;
        this.clock = clock;
    }

    /**
     * The sessions on {@code host:port}, session i opening with {@code byClip.get(i % clips)}.
     *
     * @param meters Rondo's meters, read before and after the phase; null for a server without them
     * @param greedyPaths the greedy downloaders' URL paths, one each; empty for none
     */
    HlsPhase run(String server, String host, int port, List<HlsSession.Opening> byClip, HlsMeters meters,
                 List<String> greedyPaths) throws IOException, InterruptedException {
        boolean greedy = !greedyPaths.isEmpty();
        console.printf(Locale.ROOT, "hls: phase %s%s: %d sessions over %d clips, each playing %d s%n", server,
            greedy ? " with " + greedyPaths.size() + " greedy downloaders" : "", settings.sessions(), byClip.size(),
            settings.durationSeconds());
        HlsMeters.Parts before = null;
        if (meters != null) {
            drain(meters);
            before = meters.parts();
        }
        long phaseNs = clock.nanoTime() + LEAD_NS;
        long endNs = phaseNs + settings.rampNs() + settings.playNs() + SECOND_NS;
        GreedyProcess greedyRun = greedy ? new GreedyProcess(settings.greedyNice(), work, host, port, greedyPaths,
            endNs, server, clock) : null;
        SessionLog log = new SessionLog();
        SplittableRandom random = new SplittableRandom(settings.seed());
        List<HttpConnection> connections = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < settings.sessions(); i++) {
            HttpConnection connection = new HttpConnection(host, port);
            connections.add(connection);
            long startNs = phaseNs + (long) (random.nextDouble() * settings.rampNs());
            HlsSession session = new HlsSession(connection, byClip.get(i % byClip.size()), startNs,
                settings.playNs(), clock, log);
            Thread thread = new Thread(null, session, "hls-" + server + "-" + i, SESSION_STACK_BYTES);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        connections.forEach(HttpConnection::close);
        long greedyBytes = 0;
        long greedyElapsedNs = 0;
        if (greedyRun != null) {
            greedyRun.stop();
            greedyBytes = greedyRun.bytes();
            greedyElapsedNs = greedyRun.elapsedNs();
        }
        HlsMeters.Parts parts = meters == null ? null : meters.parts().since(before);
        return new HlsPhase(server, greedy, settings.sessions(), log, parts, greedyBytes, greedyElapsedNs);
    }

    /** Waits until the last phase's sessions have ended on Rondo, as its meter says, so they do not take room. */
    void drain(HlsMeters meters) throws IOException {
        long giveUpNs = clock.nanoTime() + DRAIN_LIMIT_NS;
        for (OptionalDouble open = meters.sessions(); open.isPresent() && open.getAsDouble() > 0;
             open = meters.sessions()) {
            if (clock.nanoTime() - giveUpNs > 0) {
                console.printf(Locale.ROOT, "hls: %.0f sessions of the last phase still in service after %d s; "
                    + "starting anyway%n", open.getAsDouble(), DRAIN_LIMIT_NS / SECOND_NS);
                return;
            }
            LockSupport.parkNanos(SECOND_NS / 2);
        }
    }
}
