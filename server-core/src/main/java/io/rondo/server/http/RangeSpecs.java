package io.rondo.server.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The byte ranges of one Range header, one {@code range-spec} at a time (RFC 9110 Section 14.1.1),
 * and what a set of them comes to once overlaps are merged.
 *
 * <p>A position is any run of digits, however long: {@code bytes=99999999999999999999-} is valid
 * syntax that no representation satisfies (416), not a header to ignore; a position past what a
 * {@code long} holds is past the end of every representation, and is read as {@link Long#MAX_VALUE}.
 */
final class RangeSpecs {

    private RangeSpecs() {
    }

    /**
     * One {@code range-spec} against a representation of {@code size} bytes: the bytes it names,
     * cut at the end; null if it names none of them (unsatisfiable).
     *
     * @throws IllegalArgumentException if it is not an int-range or suffix-range of the bytes unit,
     *                                  or its last position comes before its first: the whole
     *                                  header is then to be ignored
     */
    static ByteRangeSpec resolve(String spec, long size) {
        int dash = spec.indexOf('-');
        if (dash < 0) {
            throw new IllegalArgumentException("no '-' in " + spec);
        }
        String first = spec.substring(0, dash);
        String last = spec.substring(dash + 1);
        if (first.isEmpty()) {
            long suffix = position(last);
            return suffix == 0 || size == 0 ? null : new ByteRangeSpec(Math.max(0, size - suffix), size - 1);
        }
        long from = position(first);
        long to = last.isEmpty() ? Long.MAX_VALUE : position(last);
        if (!last.isEmpty() && compare(last, first) < 0) {
            throw new IllegalArgumentException("the range ends before it starts: " + spec);
        }
        return from >= size ? null : new ByteRangeSpec(from, Math.min(to, size - 1));
    }

    /**
     * The ranges to send for {@code ranges}: as given if no two overlap or touch; otherwise every
     * run of overlapping or adjacent ranges merged into one, all in ascending order (RFC 9110
     * Section 14.2 lets a server coalesce them, and a client that asks for overlaps gets each
     * byte once).
     */
    static List<ByteRangeSpec> coalesce(List<ByteRangeSpec> ranges) {
        if (ranges.size() < 2) {
            return ranges;
        }
        List<ByteRangeSpec> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(ByteRangeSpec::first));
        List<ByteRangeSpec> merged = new ArrayList<>();
        ByteRangeSpec run = sorted.get(0);
        for (ByteRangeSpec next : sorted.subList(1, sorted.size())) {
            if (next.first() <= run.last() + 1) {
                run = new ByteRangeSpec(run.first(), Math.max(run.last(), next.last()));
            } else {
                merged.add(run);
                run = next;
            }
        }
        merged.add(run);
        return merged.size() == ranges.size() ? ranges : merged;
    }

    private static final String LARGEST = String.valueOf(Long.MAX_VALUE);

    /** A run of digits as a position, {@link Long#MAX_VALUE} if it is larger. */
    private static long position(String digits) {
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("not a position: '" + digits + "'");
        }
        String significant = significant(digits);
        return compare(significant, LARGEST) > 0 ? Long.MAX_VALUE : Long.parseLong(significant);
    }

    /** Compares two runs of digits as the numbers they are, of any length. */
    private static int compare(String a, String b) {
        String x = significant(a);
        String y = significant(b);
        return x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y);
    }

    private static String significant(String digits) {
        int start = 0;
        while (start < digits.length() - 1 && digits.charAt(start) == '0') {
            start++;
        }
        return digits.substring(start);
    }
}
