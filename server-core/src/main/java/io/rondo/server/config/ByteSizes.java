package io.rondo.server.config;

import java.util.Locale;

/** Byte sizes as people write them on a command line: {@code 4096}, {@code 64K}, {@code 256M}, {@code 2G}. */
public final class ByteSizes {

    /** Bytes in a MiB: byte rates are printed in MiB/s, as sizes are in MiB. */
    public static final double MIB = 1 << 20;

    private ByteSizes() {
    }

    /** Parses a size with an optional K, M, G or T suffix (powers of 1024, an optional trailing B or iB). */
    public static long parse(String text, String option) {
        String value = text.trim().toUpperCase(Locale.ROOT).replaceFirst("I?B$", "");
        long unit = 1;
        if (!value.isEmpty()) {
            switch (value.charAt(value.length() - 1)) {
                case 'K' -> unit = 1L << 10;
                case 'M' -> unit = 1L << 20;
                case 'G' -> unit = 1L << 30;
                case 'T' -> unit = 1L << 40;
                default -> unit = 1;
            }
        }
        String digits = unit == 1 ? value : value.substring(0, value.length() - 1);
        try {
            double number = Double.parseDouble(digits);
            if (!(number > 0) || number * unit > Long.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return (long) (number * unit);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a positive size like 4096, 64K, 256M or 2G, was '"
                + text + "'");
        }
    }

    /** A size for people: {@code 256 MiB}. */
    public static String format(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = 0;
        while (unit < units.length - 1 && (unit == 0 ? Math.round(value) : Math.round(value * 10) / 10.0) >= 1024) {
            value /= 1024;
            unit++;
        }
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f %s", value, units[unit])
            : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
