package io.rondo.benchmarks.preset.hls;

import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.load.live.LiveFeed;
import io.rondo.benchmarks.load.live.PacedPublisher;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.load.paced.PacedReader;
import io.rondo.client.StreamRejectedException;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * LL-HLS live delay: a live encoder's fMP4 published to Rondo in real time (as {@code ffmpeg -re}
 * feeds {@code rondo record}), followed by an LL-HLS client that asks for each next part with a
 * blocking playlist reload ({@code _HLS_msn}, {@code _HLS_part}) and GETs it as soon as it is
 * listed. A part's delay is when its last byte arrived minus when its media ended: its segment's
 * {@code EXT-X-PROGRAM-DATE-TIME} plus its offset in the segment plus its duration. A playlist
 * without a date-time (the recording is over and its object is stored) ends the following.
 */
final class LiveDelay {

    private static final long SECOND_NS = HlsSettings.SECOND_NS;
    /** How the publisher slices the clip: a live encoder's writes. */
    private static final long SLICE_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How long the client waits for the recording's playlist to appear. */
    private static final long APPEAR_LIMIT_NS = 15 * SECOND_NS;

    private final NanoClock clock;
    private final EpochClock epoch;

    LiveDelay(NanoClock clock, EpochClock epoch) {
        this.clock = clock;
        this.epoch = epoch;
    }

    /**
     * Publishes {@code clip} (a live fMP4 of {@code clipSeconds}) as {@code name} for {@code seconds}
     * and follows it: each part's delay in the log, with failed answers.
     *
     * @throws IOException if the recording is refused or cannot be published
     */
    DelayLog run(ServeProcess rondo, Path data, Path clip, int clipSeconds, String name, int seconds,
                 long peakBitsPerSecond) throws IOException, InterruptedException {
        String token = Files.readString(data.resolve("rondo").resolve("publish.token"), StandardCharsets.UTF_8)
            .strip();
        DelayLog delays = new DelayLog();
        PacedPublisher publisher = publisher(rondo, name, peakBitsPerSecond, token, delays);
        if (publisher == null) {
            return delays;
        }
        LiveFeed feed = LiveFeed.of(clip, clipSeconds * SECOND_NS, SLICE_NS, publisher.roundNs());
        long startNs = clock.nanoTime();
        publisher.schedule(feed, startNs, startNs + seconds * SECOND_NS);
        Thread publishing = new Thread(publisher, "hls-live-publisher");
        publishing.setDaemon(true);
        publishing.start();
        try (HttpConnection connection = new HttpConnection(rondo.host(), rondo.httpPort())) {
            follow(connection, "/" + name, startNs + (seconds + 15) * SECOND_NS, delays);
        } catch (IOException | RuntimeException e) {
            delays.failed("following: " + e.getMessage());
        }
        publishing.join();
        if (publisher.failure() != null) {
            delays.failed("publishing: " + publisher.failure());
        }
        return delays;
    }

    /**
     * The recording's publisher, once Rondo accepts it; a refusal is asked again after its retry-after
     * for {@code APPEAR_LIMIT_NS}, then logged as a failure and null returned.
     */
    private PacedPublisher publisher(ServeProcess rondo, String name, long peakBitsPerSecond, String token,
                                     DelayLog delays) throws IOException, InterruptedException {
        long giveUpNs = clock.nanoTime() + APPEAR_LIMIT_NS;
        while (true) {
            try {
                return PacedPublisher.publish(rondo.host(), rondo.streamPort(), name, peakBitsPerSecond, token,
                    clock, new DelayLog(), 2 * SECOND_NS);
            } catch (StreamRejectedException e) {
                if (clock.nanoTime() - giveUpNs > 0) {
                    delays.failed("the live recording was refused: " + e.getMessage());
                    return null;
                }
                PacedReader.parkingOn(clock::nanoTime).sleepUntil(clock.nanoTime() + SECOND_NS);
            }
        }
    }

    /** Follows the recording at {@code path} until its playlist ends or {@code giveUpNs}. */
    private void follow(HttpConnection connection, String path, long giveUpNs, DelayLog delays)
        throws IOException, InterruptedException {
        long epochAtNs = epoch.time() * 1_000_000L - clock.nanoTime();
        String multivariant = path + ".m3u8";
        HttpConnection.Answer first = connection.exchange(multivariant, 0, -1, true);
        long appearLimitNs = clock.nanoTime() + APPEAR_LIMIT_NS;
        while (first.status() == 404 && clock.nanoTime() - appearLimitNs < 0) {
            PacedReader.parkingOn(clock::nanoTime).sleepUntil(clock.nanoTime() + SECOND_NS / 5);
            first = connection.exchange(multivariant, 0, -1, true);
        }
        if (first.status() != 200) {
            throw new IOException("GET " + multivariant + " answered " + first.status() + ": " + first.text().strip());
        }
        String variant = Playlists.variant(first.text(), multivariant);
        Playlists.Live live = Playlists.live(playlist(connection, variant), variant);
        while (live.parts().isEmpty() && !live.ended() && clock.nanoTime() - giveUpNs < 0) {
            PacedReader.parkingOn(clock::nanoTime).sleepUntil(clock.nanoTime() + SECOND_NS / 5);
            live = Playlists.live(playlist(connection, variant), variant);
        }
        long[] wanted = live.parts().isEmpty() ? new long[] {0, 0} : live.nextAfterLast();
        while (!live.ended() && clock.nanoTime() - giveUpNs < 0) {
            String blocking = String.format(Locale.ROOT, "%s%s_HLS_msn=%d&_HLS_part=%d", variant,
                variant.contains("?") ? "&" : "?", wanted[0], wanted[1]);
            HttpConnection.Answer reload = connection.exchange(blocking, 0, -1, true);
            if (reload.status() == 503) {
                continue;
            }
            if (reload.status() != 200) {
                throw new IOException("GET " + blocking + " answered " + reload.status() + ": "
                    + reload.text().strip());
            }
            live = Playlists.live(reload.text(), variant);
            if (live.programDateEpochMs() == Long.MIN_VALUE) {
                return;
            }
            for (Playlists.LivePart part : live.parts()) {
                if (part.msn() > wanted[0] || part.msn() == wanted[0] && part.index() >= wanted[1]) {
                    fetch(connection, part, live.programDateEpochMs(), epochAtNs, delays);
                }
            }
            if (!live.parts().isEmpty()) {
                wanted = live.nextAfterLast();
            }
        }
    }

    /** GETs {@code part}; its delay is its last byte's arrival on the wall clock minus its media's end. */
    private void fetch(HttpConnection connection, Playlists.LivePart part, long dateEpochMs, long epochAtNs,
                       DelayLog delays) throws IOException {
        Playlists.ByteRange range = part.range();
        HttpConnection.Answer answer = connection.exchange(range.path(), range.offset(), range.length(), false);
        long arrivedEpochNs = epochAtNs + clock.nanoTime();
        if (answer.status() != 206 || answer.length() != range.length()) {
            delays.failed(String.format(Locale.ROOT, "live part %d.%d answered %d with %d bytes, not %d",
                part.msn(), part.index(), answer.status(), answer.length(), range.length()));
            return;
        }
        delays.record(arrivedEpochNs - (dateEpochMs * 1_000_000L + part.endFromDateNs()), range.length());
    }

    private static String playlist(HttpConnection connection, String path) throws IOException {
        HttpConnection.Answer answer = connection.exchange(path, 0, -1, true);
        if (answer.status() != 200) {
            throw new IOException("GET " + path + " answered " + answer.status() + ": " + answer.text().strip());
        }
        return answer.text();
    }
}
