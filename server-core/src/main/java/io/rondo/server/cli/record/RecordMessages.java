package io.rondo.server.cli.record;

import io.rondo.client.StreamErrorException;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.Reject;
import io.rondo.server.cli.console.Reasons;
import io.rondo.server.config.ByteSizes;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Locale;

/**
 * What {@code rondo record} says on standard error, worded in one place: one line each, starting
 * with the command's name, sizes in binary units, rates in bits per second as the peak rate is
 * given, media time as {@code m:ss}, and always what is durable, since that is what a crash or a
 * failure leaves recorded.
 */
final class RecordMessages {

    /** The start of every line the command prints. */
    static final String NAME = "rondo record: ";

    private RecordMessages() {
    }

    /**
     * The progress line: what was sent, how fast, and what is durable.
     *
     * @param sentBytes MEDIA bytes sent so far
     * @param durable   the server's newest DURABLE, or null before the first
     * @param elapsedNs time since ACCEPT
     */
    static String progressLine(long sentBytes, Durable durable, long elapsedNs) {
        return NAME + ByteSizes.format(sentBytes) + " sent, " + BitRates.format(bitsPerSecond(sentBytes, elapsedNs))
            + ", " + durable(durable);
    }

    /** The final line of a finished recording: its name, what is durable, what was sent and how fast. */
    static String summary(String outcome, String objectName, long sentBytes, Durable durable, long elapsedNs) {
        return String.format(Locale.ROOT, "%s%s %s: %s; %s sent in %.1f s (%s)", NAME, outcome, objectName,
            durable(durable), ByteSizes.format(sentBytes), elapsedNs / 1e9,
            BitRates.format(bitsPerSecond(sentBytes, elapsedNs)));
    }

    /** The server could not be reached: where, why, and what to check. */
    static String cannotConnect(String address, IOException e) {
        return NAME + "cannot connect to " + address + ": " + Reasons.of(e)
            + "; is rondo serve running there, with that stream port?";
    }

    /** The server refused the recording: its reason, its message, and what can help. */
    static String refusal(String objectName, Reject reject, String tokenSource) {
        String hint = switch (reject.reason()) {
            case FORBIDDEN -> "; the token from " + tokenSource + " is not the server's publish or admin token";
            case NAME_TAKEN -> "; record under another name";
            default -> reject.retryAfterSeconds() > 0 ? "; retry in " + reject.retryAfterSeconds() + " s" : "";
        };
        return NAME + "the server refused to record " + objectName + ": " + reject.reason()
            + (reject.message().isEmpty() ? "" : " (" + reject.message() + ")") + hint;
    }

    /**
     * The recording broke: how, after how much, and what stays recorded.
     *
     * @param e         what broke it: the server's ERROR, a timeout, the connection
     * @param sentBytes MEDIA bytes sent before
     * @param durable   the server's last DURABLE, or null
     */
    static String broken(IOException e, long sentBytes, Durable durable) {
        String how = e instanceof StreamErrorException ? "the server ended the recording"
            : e instanceof SocketTimeoutException ? "the server did not finish the recording" : "the connection broke";
        return NAME + how + " after " + ByteSizes.format(sentBytes) + " sent: " + Reasons.of(e) + "; "
            + (durable == null ? "nothing was durable yet" : durable(durable) + " stays recorded");
    }

    /** {@code durable up to 1:05 (65 fragments)}, or that nothing is yet. */
    static String durable(Durable durable) {
        if (durable == null) {
            return "nothing durable yet";
        }
        return "durable up to " + mediaTime(durable.durableNs()) + " (" + durable.fragments()
            + (durable.fragments() == 1 ? " fragment)" : " fragments)");
    }

    /** {@code m:ss}, or {@code h:mm:ss} from an hour. */
    static String mediaTime(long ns) {
        long s = ns / 1_000_000_000L;
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
            : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    private static long bitsPerSecond(long bytes, long elapsedNs) {
        return elapsedNs <= 0 ? 0 : Math.round(bytes * 8e9 / elapsedNs);
    }
}
