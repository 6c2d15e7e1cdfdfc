package io.rondo.server.cli.play;

import io.rondo.client.Gap;
import io.rondo.client.StreamErrorException;
import io.rondo.client.protocol.Live;
import io.rondo.client.protocol.Reject;
import io.rondo.server.cli.console.Reasons;
import io.rondo.server.config.ByteSizes;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What {@code rondo play} says on standard error, worded in one place so that the progress line,
 * the summary and every failure read alike: one line each, starting with the command's name, sizes
 * in binary units ({@code KiB}, {@code MiB/s}), and no stack trace.
 */
final class PlayMessages {

    /** The start of every line the command prints. */
    static final String NAME = "rondo play: ";

    private PlayMessages() {
    }

    /**
     * The progress line, without the carriage return; while the object is being recorded ({@code live}
     * not null and not ended) it says LIVE and how far the media written is behind the live edge.
     */
    static String progressLine(PlaybackMeter meter, Live live, long nowNs) {
        return String.format(Locale.ROOT, "%s%.1f s (%s), buffer %.1f s, %s, %s, %s%s", NAME, meter.positionNs() / 1e9,
            count(meter.fragments(), "fragment", "fragments"), meter.bufferedNs(nowNs) / 1e9,
            rate(meter.bytesPerSecond(nowNs)), count(meter.glitches(), "glitch", "glitches"),
            ByteSizes.format(meter.bytes()), live(meter, live));
    }

    private static String live(PlaybackMeter meter, Live live) {
        if (live == null) {
            return "";
        }
        if (live.ended()) {
            return String.format(Locale.ROOT, ", recording ended at %.1f s", live.recordedNs() / 1e9);
        }
        return String.format(Locale.ROOT, ", LIVE %.1f s behind", Math.max(0, live.recordedNs() - meter.positionNs())
            / 1e9);
    }

    /** The final line: how the stream ended, what arrived, how fast, and the glitches. */
    static String summary(String outcome, PlaybackMeter meter, long nowNs) {
        return String.format(Locale.ROOT, "%s%s: %.1f s (%s), %s in %.1f s (%s), %s", NAME, outcome,
            meter.positionNs() / 1e9, count(meter.fragments(), "fragment", "fragments"),
            ByteSizes.format(meter.bytes()), meter.sinceAcceptedNs(nowNs) / 1e9,
            rate(meter.meanBytesPerSecond(nowNs)), count(meter.glitches(), "glitch", "glitches"));
    }

    /** A connection lost mid-stream and made again: why, and what the gap cost. */
    static String gap(Gap gap) {
        return String.format(Locale.ROOT, "%sthe connection was lost (%s); connected again, the stream went on at "
            + "fragment %d after %.1f s%s", NAME, gap.cause(), gap.nextFragment(), gap.length().toMillis() / 1e3,
            gap.fragmentsSkipped() == 0 ? ", nothing skipped" : ", " + count(gap.fragmentsSkipped(), "fragment",
                "fragments") + " skipped");
    }

    /** What the summary adds when the stream had gaps: how many, and the longest; nothing if none. */
    static String gaps(List<Gap> gaps) {
        if (gaps.isEmpty()) {
            return "";
        }
        Duration longest = gaps.stream().map(Gap::length).max(Duration::compareTo).orElseThrow();
        return String.format(Locale.ROOT, ", %s (the longest %.1f s, %d fragments skipped)",
            count(gaps.size(), "reconnection", "reconnections"), longest.toMillis() / 1e3,
            gaps.stream().mapToLong(Gap::fragmentsSkipped).sum());
    }

    /** The server could not be reached: where, why, and what to check. */
    static String cannotConnect(String address, IOException e) {
        return NAME + "cannot connect to " + address + ": " + reason(e)
            + "; is rondo serve running there, with that stream port?";
    }

    /** The server refused the stream: its reason, its message, and when to retry if a retry can help. */
    static String refusal(String name, Reject reject) {
        return NAME + "the server refused the stream of " + name + ": " + reject.reason()
            + (reject.message().isEmpty() ? "" : " (" + reject.message() + ")")
            + (reject.retryAfterSeconds() > 0 ? "; retry in " + reject.retryAfterSeconds() + " s" : "");
    }

    /**
     * The stream broke: how, and, once it had started ({@code meter} not null), after how much of it.
     */
    static String broken(IOException e, PlaybackMeter meter) {
        if (meter == null) {
            if (e instanceof StreamErrorException) {
                return NAME + "the server answered with an error: " + e.getMessage();
            }
            return NAME + (e instanceof SocketTimeoutException ? "the server did not answer: "
                : "the connection broke before the stream started: ") + reason(e);
        }
        String after = " after " + received(meter) + ": ";
        if (e instanceof StreamErrorException) {
            return NAME + "the server ended the stream" + after + e.getMessage();
        }
        if (e instanceof SocketTimeoutException) {
            return NAME + "the stream timed out" + after + e.getMessage();
        }
        return NAME + "the connection broke" + after + reason(e);
    }

    /** Why an I/O operation failed, in words: the host, the file system's reason, or the message. */
    static String reason(IOException e) {
        return Reasons.of(e);
    }

    /** What arrived so far, for a line that says how a stream failed. */
    private static String received(PlaybackMeter meter) {
        return String.format(Locale.ROOT, "%.1f s (%s, %s)", meter.positionNs() / 1e9,
            count(meter.fragments(), "fragment", "fragments"), ByteSizes.format(meter.bytes()));
    }

    /** A byte rate in binary units: {@code 1.1 MiB/s}. */
    private static String rate(long bytesPerSecond) {
        return ByteSizes.format(bytesPerSecond) + "/s";
    }

    private static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
