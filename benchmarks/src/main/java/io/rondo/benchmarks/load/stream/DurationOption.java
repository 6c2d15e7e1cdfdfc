package io.rondo.benchmarks.load.stream;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as people write one on a load client's command line: {@code 10s}, {@code 500ms},
 * {@code 2m}; a bare number is seconds, and zero is allowed (no ramp). Byte sizes are server-core's
 * {@code ByteSizes}, as {@code rondo.yaml} writes them.
 */
public final class DurationOption {

    private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|h)?");

    private DurationOption() {
    }

    /**
     * A duration: a number with ms, s, m or h; a bare number is seconds.
     *
     * @param text e.g. {@code 10s}, {@code 1.5s}, {@code 250ms}, {@code 2m}
     * @param option the option's name, for the complaint
     * @return nanoseconds, not negative
     */
    public static long parseNs(String text, String option) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(option + " must be a duration like 10s, 500ms or 2m, was '" + text
                + "'");
        }
        double number = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double unitNs = switch (unit) {
            case "ms" -> 1e6;
            case "m" -> 60e9;
            case "h" -> 3600e9;
            default -> 1e9;
        };
        double ns = number * unitNs;
        if (ns > Long.MAX_VALUE / 4) {
            throw new IllegalArgumentException(option + " is too long: '" + text + "'");
        }
        return Math.round(ns);
    }
}
