package io.rondo.server.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as {@code rondo.yaml} and the admin API write them: {@code 1500ms}, {@code 2s}, {@code 1.5s}. */
public final class Durations {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s)");

    private Durations() {
    }

    /**
     * {@code text} in whole milliseconds, at least 1.
     *
     * @throws IllegalArgumentException naming {@code key} if it is no duration
     */
    public static long parseMillis(String text, String key) {
        Matcher matcher = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new IllegalArgumentException(key + " must be auto or a duration such as 1500ms or 2s, was '"
                + text + "'");
        }
        double value = Double.parseDouble(matcher.group(1));
        long millis = Math.round(matcher.group(2).equals("s") ? value * 1000 : value);
        if (millis < 1 || millis > 3_600_000) {
            throw new IllegalArgumentException(key + " must be between 1ms and 1 hour, was '" + text + "'");
        }
        return millis;
    }
}
