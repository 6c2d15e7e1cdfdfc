package io.rondo.server.http;

import io.rondo.server.config.HttpSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RFC 9110 preconditions and ranges, as a table of requests against one 1000-byte representation. */
class ConditionalRequestsTest {

    /** 1000 bytes, ETag "v1", last modified Sun, 06 Nov 1994 08:49:37 GMT. */
    private static final Representation DOC = new Representation(1000, "\"v1\"", 784_111_777_000L);
    private static final String MODIFIED = "Sun, 06 Nov 1994 08:49:37 GMT";
    private static final String LATER = "Mon, 07 Nov 1994 08:49:37 GMT";
    private static final String EARLIER = "Sat, 05 Nov 1994 08:49:37 GMT";

    private static String evaluate(String method, String... headers) {
        Map<String, String> byName = new HashMap<>();
        for (int i = 0; i < headers.length; i += 2) {
            byName.put(headers[i].toLowerCase(Locale.ROOT), headers[i + 1]);
        }
        Outcome outcome = ConditionalRequests.evaluate(method, name -> byName.get(name.toLowerCase(Locale.ROOT)), DOC);
        return outcome.status() + (outcome.ranges().isEmpty() ? "" : " " + outcome.ranges().stream()
            .map(range -> range.first() + "-" + range.last()).collect(Collectors.joining(",")));
    }

    /** Each row: the request's headers (name=value;...), then the status and ranges expected. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
        (none)                                         | 200
        Range=bytes=0-499                              | 206 0-499
        Range=bytes=500-                               | 206 500-999
        Range=bytes=-100                               | 206 900-999
        Range=bytes=-5000                              | 206 0-999
        Range=bytes=900-5000                           | 206 900-999
        Range=bytes=0-0,-1                             | 206 0-0,999-999
        Range=bytes=500-599, 0-99 ,900-                | 206 500-599,0-99,900-999
        Range=bytes=1000-                              | 416
        Range=bytes=5000-6000,2000-                    | 416
        Range=bytes=-0                                 | 416
        Range=bytes=1000-,0-9                          | 206 0-9
        Range=bytes=9-0                                | 200
        Range=bytes=abc                                | 200
        Range=bytes=1-2-3                              | 200
        Range=items=0-9                                | 200
        Range=bytes=                                   | 200
        Range=bytes=0-499,250-749                      | 206 0-749
        Range=bytes=500-599,0-99,100-199               | 206 0-199,500-599
        Range=bytes=900-,-50                           | 206 900-999
        Range=bytes=0-9,,20-29                         | 206 0-9,20-29
        Range=bytes=0-999,0-0                          | 200
        Range=bytes=0-599,400-999                      | 200
        Range=bytes=99999999999999999999-              | 416
        Range=bytes=00000000000000000000001-1          | 206 1-1
        Range=bytes=0-99999999999999999999             | 206 0-999
        Range=bytes=-99999999999999999999              | 206 0-999
        Range=bytes=99999999999999999999-9999999999999999999 | 200
        Range=bytes=0 - 9                              | 200
        If-None-Match="v1"                             | 304
        If-None-Match=W/"v1"                           | 304
        If-None-Match="v0", "v1"                       | 304
        If-None-Match=*                                | 304
        If-None-Match="v0"                             | 200
        If-None-Match="v0";Range=bytes=0-9             | 206 0-9
        If-Match="v1";Range=bytes=0-9                  | 206 0-9
        If-Match="v0"                                  | 412
        If-Match=W/"v1"                                | 412
        If-Match=*                                     | 200
        If-Modified-Since=Sun, 06 Nov 1994 08:49:37 GMT | 304
        If-Modified-Since=Sat, 05 Nov 1994 08:49:37 GMT | 200
        If-Modified-Since=not a date                   | 200
        If-None-Match="v0";If-Modified-Since=Mon, 07 Nov 1994 08:49:37 GMT | 200
        If-Unmodified-Since=Sat, 05 Nov 1994 08:49:37 GMT | 412
        If-Unmodified-Since=Mon, 07 Nov 1994 08:49:37 GMT | 200
        If-Match="v1";If-Unmodified-Since=Sat, 05 Nov 1994 08:49:37 GMT | 200
        If-Range="v1";Range=bytes=0-9                  | 206 0-9
        If-Range="stale";Range=bytes=0-9               | 200
        If-Range=W/"v1";Range=bytes=0-9                | 200
        If-Range=Sun, 06 Nov 1994 08:49:37 GMT;Range=bytes=0-9 | 206 0-9
        If-Range=Sat, 05 Nov 1994 08:49:37 GMT;Range=bytes=0-9 | 200
        If-Range="stale";Range=bytes=5000-             | 200
        """)
    void getFollowsRfc9110(String headers, String expected) {
        assertEquals(expected, evaluate("GET", split(headers)));
    }

    @Test
    void headIgnoresRangeButHonoursPreconditions() {
        assertEquals("200", evaluate("HEAD", "Range", "bytes=0-9"));
        assertEquals("304", evaluate("HEAD", "If-None-Match", "\"v1\""));
        assertEquals("412", evaluate("HEAD", "If-Match", "\"v2\""));
    }

    @Test
    void moreRangesThanTheLimitAreIgnoredRatherThanServedPieceByPiece() {
        String many = "bytes=" + "0-0,".repeat(HttpSettings.DEFAULT_MAX_RANGES) + "1-1";
        assertEquals("200", evaluate("GET", "Range", many));
    }

    @Test
    void anEmptyRepresentationSatisfiesNoRange() {
        Outcome outcome = ConditionalRequests.evaluate("GET", name -> name.equals("Range") ? "bytes=0-" : null,
            new Representation(0, "\"e\"", 0));
        assertEquals(416, outcome.status());
    }

    @Test
    void allThreeHttpDateFormsAreRead() {
        long expected = 784_111_777L;
        assertEquals(expected, ConditionalRequests.date(MODIFIED));
        assertEquals(expected, ConditionalRequests.date("Sunday, 06-Nov-94 08:49:37 GMT"));
        assertEquals(expected, ConditionalRequests.date("Sun Nov  6 08:49:37 1994"));
        assertNull(ConditionalRequests.date("yesterday"));
        assertTrue(ConditionalRequests.date(LATER) > expected && ConditionalRequests.date(EARLIER) < expected);
    }

    @Test
    void contentRangeAndMultipartAreDescribedForTheHandler() {
        Outcome outcome = ConditionalRequests.evaluate("GET", name -> name.equals("Range") ? "bytes=0-9,20-29" : null,
            DOC);
        assertTrue(outcome.multipart());
        assertFalse(outcome.whole());
        assertEquals("bytes 20-29/1000", outcome.ranges().get(1).contentRange(1000));
        assertEquals(10, outcome.ranges().get(0).length());
    }

    private static String[] split(String headers) {
        if (headers.equals("(none)")) {
            return new String[0];
        }
        String[] pairs = headers.split(";");
        String[] flat = new String[pairs.length * 2];
        for (int i = 0; i < pairs.length; i++) {
            int equals = pairs[i].indexOf('=');
            flat[2 * i] = pairs[i].substring(0, equals).trim();
            flat[2 * i + 1] = pairs[i].substring(equals + 1).trim();
        }
        return flat;
    }
}
