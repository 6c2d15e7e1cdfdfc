package io.rondo.content.media;

/** Times counted in ticks of a timescale (ticks a second), converted without overflow or drift. */
public final class Ticks {

    /** Nanoseconds in a second. */
    public static final long NS_PER_SECOND = 1_000_000_000L;

    private Ticks() {
    }

    /**
     * {@code ticks} of a clock with {@code timescale} ticks a second, in ns, rounded toward zero
     * (negative ticks give negative ns).
     *
     * @throws MediaFormatException if the time does not fit 292 years, which no real media lasts
     */
    public static long toNs(long ticks, long timescale, String where) throws MediaFormatException {
        return rescale(ticks, timescale, NS_PER_SECOND, where);
    }

    /** {@code value} of a clock with {@code from} ticks a second, in ticks of one with {@code to}. */
    public static long rescale(long value, long from, long to, String where) throws MediaFormatException {
        if (from <= 0) {
            throw MediaFormatException.corrupt(where + " has a timescale of " + from);
        }
        try {
            return Math.addExact(Math.multiplyExact(value / from, to), Math.multiplyExact(value % from, to) / from);
        } catch (ArithmeticException e) {
            throw MediaFormatException.corrupt(where + " holds a time of " + value + " / " + from
                + " s, too large to be real");
        }
    }

    /** {@code value} ticks of {@code from} a second in ticks of {@code to}, rounded up (for a duration's end). */
    public static long rescaleUp(long value, long from, long to, String where) throws MediaFormatException {
        long down = rescale(value, from, to, where);
        return rescale(down, to, from, where) < value ? down + 1 : down;
    }

    /** {@code 1.978 s}: a time for a message. */
    public static String seconds(long ns) {
        return String.format(java.util.Locale.ROOT, "%.3f s", ns / 1e9);
    }
}
