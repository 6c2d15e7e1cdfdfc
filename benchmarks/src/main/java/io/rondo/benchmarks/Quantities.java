package io.rondo.benchmarks;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations and byte sizes as people write them on a command line: {@code 10s}, {@code 500ms}, {@code 16M}. */
public final class Quantities {

    private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|h)?");

    private Quantities() {
    }

    /**
     * A duration: a number with ms, s, m or h; a bare number is seconds.
     *
     * @param text e.g. {@code 10s}, {@code 1.5s}, {@code 250ms}, {@code 2m}
     * @param option the option's name, for the complaint
     * @return nanoseconds, not negative
     */
    public static long durationNs(String text, String option) {
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

    /**
     * A byte size with an optional K, M or G suffix (powers of 1024, an optional trailing B or iB),
     * as `rondo play --max-rate` and config/rondo.yaml write them.
     *
     * @param text e.g. {@code 4096}, {@code 64K}, {@code 16M}
     * @param option the option's name, for the complaint
     * @return bytes, positive
     */
    public static long bytes(String text, String option) {
        String value = text.trim().toUpperCase(Locale.ROOT).replaceFirst("I?B$", "");
        long unit = 1;
        if (!value.isEmpty()) {
            switch (value.charAt(value.length() - 1)) {
                case 'K' -> unit = 1L << 10;
                case 'M' -> unit = 1L << 20;
                case 'G' -> unit = 1L << 30;
                default -> unit = 1;
            }
        }
        String digits = unit == 1 ? value : value.substring(0, value.length() - 1);
        try {
            double number = Double.parseDouble(digits);
            if (!(number >= 1) || number * unit > Long.MAX_VALUE / 2) {
                throw new NumberFormatException();
            }
            return (long) (number * unit);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a positive size like 4096, 64K or 16M, was '" + text
                + "'");
        }
    }
}
