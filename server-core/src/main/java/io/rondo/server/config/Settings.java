package io.rondo.server.config;

import java.nio.file.Path;

/**
 * What every settings record does with its keys: reads them as {@code rondo.yaml} writes them,
 * with the key's default when left out, and checks them, with the key's name in the message.
 */
final class Settings {

    private Settings() {
    }

    static void positive(long value, String key) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, was " + value);
        }
    }

    static void waterMarks(int low, int high, String section) {
        positive(low, section + ".writeBufferLow");
        if (high < low) {
            throw new IllegalArgumentException(section + ".writeBufferHigh (" + high + " bytes) must be at least "
                + section + ".writeBufferLow (" + low + " bytes)");
        }
    }

    /** A size key as written ({@code 64K}), in bytes, at most 2 GiB - 1; the default if not written. */
    static int size(String text, String key, int defaultBytes) {
        if (text == null) {
            return defaultBytes;
        }
        long bytes = ByteSizes.parse(text, key);
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " must be below 2 GiB, was '" + text + "'");
        }
        return (int) bytes;
    }

    /** A duration key as written ({@code 10s}, {@code 1500ms}), in milliseconds; the default if not written. */
    static long duration(String text, String key, long defaultMs) {
        if (text == null) {
            return defaultMs;
        }
        try {
            return Durations.parseMillis(text, key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be a duration from 1ms to 1 hour, such as 10s or "
                + "1500ms, was '" + text + "'", e);
        }
    }

    /** A key as written; the default if not written. */
    static <T> T orDefault(T value, T defaultValue) {
        return value == null ? defaultValue : value;
    }

    /** A path key as written, or null if not written. */
    static Path path(String text) {
        return text == null ? null : Path.of(text);
    }
}
