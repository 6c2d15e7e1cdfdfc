package io.rondo.server.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * HTTP dates of epoch-millisecond times, remembered by their second in a small direct-mapped
 * table: a hot object's Last-Modified is formatted once, not once per answer, and objects written
 * within the same second (a library ingested at once) share one entry rather than evicting each
 * other. Any thread may ask; a slot holds one immutable entry, so a race only formats a date twice.
 */
final class HttpDates {

    /**
     * RFC 9110's IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}): a two-digit day, which the
     * JDK's RFC 1123 format does not write.
     */
    static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'",
        Locale.US).withZone(ZoneOffset.UTC);

    private static final int SLOT_BITS = 10;
    private static final int SLOTS = 1 << SLOT_BITS;

    private record Entry(long epochSecond, String text) {
    }

    private final DateTimeFormatter format;
    private final Entry[] slots = new Entry[SLOTS];

    HttpDates(DateTimeFormatter format) {
        this.format = format;
    }

    /** The date of {@code epochMs} as {@code format} writes it, to the second (an HTTP date has no finer part). */
    String format(long epochMs) {
        long epochSecond = Math.floorDiv(epochMs, 1000L);
        int slot = (int) (epochSecond ^ epochSecond >>> 32) * 0x9E3779B9 >>> Integer.SIZE - SLOT_BITS;
        Entry entry = slots[slot];
        if (entry == null || entry.epochSecond() != epochSecond) {
            entry = new Entry(epochSecond, format.format(Instant.ofEpochSecond(epochSecond)));
            slots[slot] = entry;
        }
        return entry.text();
    }
}
