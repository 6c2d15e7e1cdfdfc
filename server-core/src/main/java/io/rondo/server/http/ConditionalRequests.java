package io.rondo.server.http;

import io.rondo.server.config.HttpSettings;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * RFC 9110's preconditions and ranges for GET and HEAD of a static representation, decided from
 * the request's headers alone: If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since in
 * the order of Section 13.2.2, then If-Range and Range (Section 14). No I/O, no transport: the
 * HTTP handler asks, then reads what the {@link Outcome} says.
 *
 * <p>Choices where the RFC leaves room (Section 14.2): a Range that does not parse, uses another
 * unit, asks for more than {@code http.maxRanges} ranges, or whose ranges together ask for more
 * bytes than the representation has, is ignored (the whole representation is sent, once).
 * Overlapping or adjacent ranges are coalesced, and then all of them are served in ascending
 * order; ranges apart from each other are served in the order asked ({@link RangeSpecs}). A date
 * validator in If-Range counts only if it equals Last-Modified to the second.
 */
public final class ConditionalRequests {


    private ConditionalRequests() {
    }

    /**
     * Evaluates a request.
     *
     * @param method  the request method, GET or HEAD
     * @param headers the request's header value by name (case-insensitive), null when absent
     * @param target  the representation asked for
     */
    public static Outcome evaluate(String method, Function<String, String> headers, Representation target) {
        return evaluate(method, headers, target, HttpSettings.DEFAULT_MAX_RANGES);
    }

    /**
     * As {@link #evaluate(String, Function, Representation)}, with at most {@code maxRanges} ranges
     * in one request ({@code http.maxRanges}); a request for more gets the whole representation.
     */
    public static Outcome evaluate(String method, Function<String, String> headers, Representation target,
                                   int maxRanges) {
        String ifMatch = headers.apply("If-Match");
        if (ifMatch != null) {
            if (!matches(ifMatch, target.etag(), true)) {
                return Outcome.of(412);
            }
        } else {
            Long unmodifiedSince = date(headers.apply("If-Unmodified-Since"));
            if (unmodifiedSince != null && seconds(target.lastModifiedMs()) > unmodifiedSince) {
                return Outcome.of(412);
            }
        }
        String ifNoneMatch = headers.apply("If-None-Match");
        if (ifNoneMatch != null) {
            if (matches(ifNoneMatch, target.etag(), false)) {
                return Outcome.of(304);
            }
        } else {
            Long modifiedSince = date(headers.apply("If-Modified-Since"));
            if (modifiedSince != null && seconds(target.lastModifiedMs()) <= modifiedSince) {
                return Outcome.of(304);
            }
        }
        String range = headers.apply("Range");
        if (range == null || !method.equals("GET") || !ifRangeHolds(headers.apply("If-Range"), target)) {
            return Outcome.of(200);
        }
        List<ByteRangeSpec> ranges = parseRanges(range, target.size(), maxRanges);
        if (ranges == null) {
            return Outcome.of(200);
        }
        return ranges.isEmpty() ? Outcome.of(416) : new Outcome(206, ranges);
    }

    /**
     * The satisfiable ranges of a Range header for a representation of {@code size} bytes: null if
     * the header is to be ignored, empty if no range is satisfiable (416).
     */
    static List<ByteRangeSpec> parseRanges(String header, long size) {
        return parseRanges(header, size, HttpSettings.DEFAULT_MAX_RANGES);
    }

    /**
     * As {@link #parseRanges(String, long)}, granting at most {@code maxRanges}. Overlapping and
     * adjacent ranges are coalesced; a set that together asks for more bytes than the
     * representation has (only overlaps can) is ignored, so no Range makes the body larger than
     * the representation.
     */
    static List<ByteRangeSpec> parseRanges(String header, long size, int maxRanges) {
        String value = header.trim();
        int equals = value.indexOf('=');
        if (equals < 0 || !value.substring(0, equals).trim().equalsIgnoreCase("bytes")) {
            return null;
        }
        List<String> specs = new ArrayList<>();
        for (String raw : value.substring(equals + 1).split(",", -1)) {
            String spec = raw.trim();
            if (!spec.isEmpty()) {
                specs.add(spec);
            }
            if (specs.size() > maxRanges) {
                return null;
            }
        }
        if (specs.isEmpty()) {
            return null;
        }
        List<ByteRangeSpec> satisfiable = new ArrayList<>();
        long asked = 0;
        for (String spec : specs) {
            ByteRangeSpec range;
            try {
                range = RangeSpecs.resolve(spec, size);
            } catch (IllegalArgumentException e) {
                return null;
            }
            if (range != null) {
                satisfiable.add(range);
                asked += range.length();
            }
        }
        if (asked > size) {
            return null;
        }
        return RangeSpecs.coalesce(satisfiable);
    }

    private static boolean ifRangeHolds(String ifRange, Representation target) {
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        if (value.startsWith("\"") || value.startsWith("W/")) {
            return !value.startsWith("W/") && value.equals(target.etag());
        }
        Long date = date(value);
        return date != null && date == seconds(target.lastModifiedMs());
    }

    /**
     * Whether an {@code If-None-Match} list (null when absent) names {@code etag}, by the weak
     * comparison RFC 9110 Section 13.1.2 asks of it: a GET of a resource with that tag is answered
     * 304 then.
     */
    public static boolean noneMatchHolds(String ifNoneMatch, String etag) {
        return ifNoneMatch != null && matches(ifNoneMatch, etag, false);
    }

    /**
     * A strong entity tag of bytes made or shipped by Rondo (a folder page, the icon, the
     * dashboard's files): the first 128 bits of their SHA-256, so it changes exactly when they do.
     */
    public static String digestTag(byte[] content) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content);
            return "\"g" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Whether an If-Match or If-None-Match list matches the entity tag, strongly or weakly. */
    static boolean matches(String list, String etag, boolean strong) {
        if (list.trim().equals("*")) {
            return true;
        }
        for (String candidate : list.split(",")) {
            String tag = candidate.trim();
            boolean weak = tag.startsWith("W/");
            if (strong && weak) {
                continue;
            }
            String opaque = weak ? tag.substring(2) : tag;
            String mine = etag.startsWith("W/") ? etag.substring(2) : etag;
            if (opaque.equals(mine) && (!strong || !etag.startsWith("W/"))) {
                return true;
            }
        }
        return false;
    }

    /** An HTTP date in epoch seconds: IMF-fixdate, or the obsolete RFC 850 and asctime forms; null if none. */
    static Long date(String value) {
        if (value == null) {
            return null;
        }
        for (DateTimeFormatter format : DATE_FORMATS) {
            try {
                return ZonedDateTime.parse(value.trim(), format).toEpochSecond();
            } catch (DateTimeParseException e) {
                continue;
            }
        }
        return null;
    }

    /** IMF-fixdate, RFC 850 (two-digit years from 1970) and asctime (Section 5.6.7). */
    private static final List<DateTimeFormatter> DATE_FORMATS = List.of(
        DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.ROOT),
        new DateTimeFormatterBuilder().appendPattern("EEEE, dd-MMM-").appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
            .appendPattern(" HH:mm:ss zzz").toFormatter(Locale.US),
        DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC));

    private static long seconds(long epochMs) {
        return Math.floorDiv(epochMs, 1000);
    }
}
