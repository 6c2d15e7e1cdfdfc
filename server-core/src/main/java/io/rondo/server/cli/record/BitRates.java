package io.rondo.server.cli.record;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bit rates as people write them for encoders: {@code 8M}, {@code 4000k}, {@code 2.5M},
 * {@code 500000}, in bits per second with decimal units (k = 1000), as ffmpeg's {@code -b:v} takes them.
 */
final class BitRates {

    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kKmMgG]?)");

    private BitRates() {
    }

    /**
     * The bits per second {@code text} says.
     *
     * @param text   a rate such as {@code 8M}
     * @param option the option it was given as, for the message
     * @throws IllegalArgumentException if it is not a positive rate
     */
    static long parse(String text, String option) {
        Matcher m = RATE.matcher(text.trim());
        if (m.matches()) {
            double unit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "k" -> 1e3;
                case "m" -> 1e6;
                case "g" -> 1e9;
                default -> 1;
            };
            double bits = Double.parseDouble(m.group(1)) * unit;
            if (bits >= 1 && bits < Long.MAX_VALUE) {
                return Math.round(bits);
            }
        }
        throw new IllegalArgumentException(option + " must be bits per second such as 8M, 4000k or 500000, was '"
            + text + "'");
    }

    /** A rate for people: {@code 4.1 Mbit/s}, {@code 850 kbit/s}. */
    static String format(long bitsPerSecond) {
        if (bitsPerSecond >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1f Mbit/s", bitsPerSecond / 1e6);
        }
        if (bitsPerSecond >= 1_000) {
            return String.format(Locale.ROOT, "%.0f kbit/s", bitsPerSecond / 1e3);
        }
        return bitsPerSecond + " bit/s";
    }
}
