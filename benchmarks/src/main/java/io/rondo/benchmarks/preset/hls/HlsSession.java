package io.rondo.benchmarks.preset.hls;

import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.load.paced.PacedReader;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.util.Locale;

/**
 * One HLS client playing from its start for a while: it opens (Rondo's playlists, or a plan of
 * byte ranges for a plain file server), GETs the init section, then each part's byte range in
 * order, part k at the start plus the durations of the parts before it, as a player in real time
 * asks, on one keep-alive connection. Each answer must be a 206 of exactly the bytes asked for.
 */
final class HlsSession implements Runnable {

    /** How a session learns its byte ranges. */
    @FunctionalInterface
    interface Opening {

        /**
         * The media playlist's ranges, or null if the server refused the session (recorded in {@code log}).
         *
         * @throws IOException on a failed answer (its reason in the message)
         */
        Playlists.Media open(HttpConnection connection, SessionLog log) throws IOException;
    }

    /**
     * Rondo's: the multivariant playlist of {@code objectPath} (a 503 refuses), asking for every round
     * as a part ({@code parts=1}, for a client that fetches round by round), then the media playlist.
     */
    static Opening playlists(String objectPath) {
        return (connection, log) -> {
            String multivariant = objectPath + ".m3u8?parts=1";
            HttpConnection.Answer first = connection.exchange(multivariant, 0, -1, true);
            if (first.status() == 503) {
                log.refused(first.text().strip());
                return null;
            }
            String variant = Playlists.variant(playlist(multivariant, first), multivariant);
            Playlists.Media media = Playlists.media(playlist(variant, connection.exchange(variant, 0, -1, true)),
                variant);
            log.admitted();
            return media;
        };
    }

    /** A plain file server's: the same ranges Rondo's playlist gave, of the same bytes, without a playlist. */
    static Opening plan(Playlists.Media media) {
        return (connection, log) -> {
            log.admitted();
            return media;
        };
    }

    private static String playlist(String path, HttpConnection.Answer answer) throws IOException {
        if (answer.status() != 200) {
            throw new IOException("GET " + path + " answered " + answer.status() + ": " + answer.text().strip());
        }
        return answer.text();
    }

    private final HttpConnection connection;
    private final Opening opening;
    private final long startNs;
    private final long playNs;
    private final NanoClock clock;
    private final SessionLog log;

    /**
     * @param startNs when it opens, on {@code clock}
     * @param playNs how much media it plays: the parts that start before it
     */
    HlsSession(HttpConnection connection, Opening opening, long startNs, long playNs, NanoClock clock,
               SessionLog log) {
        this.connection = connection;
        this.opening = opening;
        this.startNs = startNs;
        this.playNs = playNs;
        this.clock = clock;
        this.log = log;
    }

    @Override
    public void run() {
        PacedReader.Sleeper sleeper = PacedReader.parkingOn(clock::nanoTime);
        try {
            sleeper.sleepUntil(startNs);
            Playlists.Media media = opening.open(connection, log);
            if (media == null) {
                return;
            }
            fetch(media.init(), "the init section");
            long offsetNs = 0;
            for (Playlists.Part part : media.parts()) {
                if (offsetNs >= playNs) {
                    break;
                }
                long dueNs = startNs + offsetNs;
                sleeper.sleepUntil(dueNs);
                long sentNs = clock.nanoTime();
                if (fetch(part.range(), "a part")) {
                    long doneNs = clock.nanoTime();
                    log.part(sentNs - dueNs, doneNs - sentNs, part.durationNs(), part.range().length());
                }
                offsetNs += part.durationNs();
            }
        } catch (IOException | RuntimeException e) {
            log.failed("opening: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** GETs {@code range}; true if it was answered with exactly its bytes, else the failure is logged. */
    private boolean fetch(Playlists.ByteRange range, String what) {
        try {
            HttpConnection.Answer answer = connection.exchange(range.path(), range.offset(), range.length(), false);
            if (answer.status() != 206 || answer.length() != range.length()) {
                log.failed(String.format(Locale.ROOT, "%s, bytes %d-%d of %s, answered %d with %d bytes", what,
                    range.offset(), range.offset() + range.length() - 1, range.path(), answer.status(),
                    answer.length()));
                return false;
            }
            return true;
        } catch (IOException e) {
            log.failed(what + " of " + range.path() + ": " + e.getMessage());
            return false;
        }
    }
}
