package io.rondo.server.http;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.server.config.HttpSettings;

import java.math.BigInteger;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes the decision {@link ObjectResponse} makes from a request's Range, If-Range, If-Match,
 * If-None-Match, If-Modified-Since and If-Unmodified-Since ({@link ConditionalRequests}) for an object
 * of any length, validators and age. Header values are fuzzed text, or near misses of what would
 * match: the object's entity tag, its Last-Modified date give or take a second, {@code bytes=}
 * followed by anything.
 *
 * <p>What must hold: the status is one RFC 9110 allows here (200, 206, 304, 412, 416), 304 and 412
 * only when a precondition header asked, and 206 only to a GET with a Range; every range granted
 * lies within the object, at most {@code http.maxRanges} of them; 416 only when no range in the
 * header could be satisfied; the Content-Length is the body's, which holds at most the granted
 * ranges' bytes and part headers; a HEAD has no body.
 */
class RangeFuzzTest {

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
    private static final String[] NAMES = {"Range", "Range", "Range", "If-Range", "If-Match", "If-None-Match",
        "If-Modified-Since", "If-Unmodified-Since"};
    private static final Pattern FIRST_LAST = Pattern.compile("(\\d+)-(\\d*)");
    private static final Pattern SUFFIX = Pattern.compile("-(\\d+)");
    /** Room for one part's boundary and headers in a multipart/byteranges body. */
    private static final long PART_HEADERS = 200;

    // No header a client sends makes Rondo send a byte outside the object, or more than was asked.
    @FuzzTest(maxDuration = "20s")
    void decide(FuzzedDataProvider data) {
        long size = data.consumeBoolean() ? data.consumeLong(0, 70_000) : data.consumeLong(0, 1L << 42);
        long modifiedMs = data.consumeLong(0, 4_102_444_800_000L);
        String etag = '"' + (data.consumeBoolean() ? "5d41402abc4b2a76" : quotable(data.consumeString(16))) + '"';
        MediaObject object = new MediaObject(1, "clip.bin", Kind.DISCRETE, "application/octet-stream", size, etag,
            modifiedMs, modifiedMs, null, null);
        int maxRanges = data.consumeBoolean() ? HttpSettings.DEFAULT_MAX_RANGES : data.consumeInt(1, 8);
        HttpMethod method = data.consumeInt(0, 3) == 0 ? HttpMethod.HEAD : HttpMethod.GET;
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, "/clip.bin",
            DefaultHttpHeadersFactory.headersFactory().withValidation(false));
        int headers = data.consumeInt(0, 4);
        for (int i = 0; i < headers; i++) {
            String name = data.pickValue(NAMES);
            request.headers().set(name, value(data, name, etag, modifiedMs));
        }

        ObjectResponse answer = ObjectResponse.decide(request, object, maxRanges);
        int status = answer.head().status().code();
        String range = request.headers().get("Range");
        assertTrue(List.of(200, 206, 304, 412, 416).contains(status), "status " + status);
        if (status == 304) {
            assertTrue(request.headers().contains("If-None-Match") || request.headers().contains("If-Modified-Since"),
                "304 only to a request that asked whether the object changed");
        }
        if (status == 412) {
            assertTrue(request.headers().contains("If-Match") || request.headers().contains("If-Unmodified-Since"),
                "412 only to a request with a precondition");
        }
        if (status == 206 || status == 416) {
            assertEquals(HttpMethod.GET, method, "ranges only for a GET");
            assertTrue(range != null, "206 and 416 only to a Range");
        }
        if (status == 416) {
            assertFalse(anySatisfiable(range, size), "416, yet a range in '" + range + "' fits " + size + " bytes");
            assertEquals("bytes */" + size, answer.head().headers().get(HttpHeaderNames.CONTENT_RANGE));
        }
        checkBody(answer, status, size, maxRanges, method);
    }

    private static String value(FuzzedDataProvider data, String name, String etag, long modifiedMs) {
        Instant modified = Instant.ofEpochMilli(modifiedMs).plusSeconds(data.consumeInt(-1, 1));
        return switch (data.consumeInt(0, 5)) {
            case 0 -> etag;
            case 1 -> "W/" + etag + ", \"other\"";
            case 2 -> HTTP_DATE.format(modified);
            case 3 -> name.equals("Range") ? "bytes=" + data.consumeString(40) : "*";
            default -> data.consumeString(40);
        };
    }

    private static String quotable(String text) {
        return text.replaceAll("[^\\x21\\x23-\\x7e]", "");
    }

    /** Whether any element of the header is a well-formed byte range that overlaps the object. */
    private static boolean anySatisfiable(String header, long size) {
        int equals = header.indexOf('=');
        for (String element : header.substring(equals + 1).split(",", -1)) {
            String spec = element.trim();
            Matcher firstLast = FIRST_LAST.matcher(spec);
            Matcher suffix = SUFFIX.matcher(spec);
            if (firstLast.matches()) {
                BigInteger first = new BigInteger(firstLast.group(1));
                boolean ordered = firstLast.group(2).isEmpty()
                    || new BigInteger(firstLast.group(2)).compareTo(first) >= 0;
                if (ordered && first.compareTo(BigInteger.valueOf(size)) < 0) {
                    return true;
                }
            } else if (suffix.matches() && size > 0 && new BigInteger(suffix.group(1)).signum() > 0) {
                return true;
            }
        }
        return false;
    }

    /** The ranges are within the object, the body no larger than they are, its length the header's. */
    private static void checkBody(ObjectResponse answer, int status, long size, int maxRanges, HttpMethod method) {
        if (answer.head() instanceof FullHttpResponse whole) {
            assertTrue(status == 304 || status == 412 || status == 416, "a whole answer is " + status);
            assertTrue(answer.body().isEmpty(), "with nothing after it");
            assertTrue(whole.content().readableBytes() < 100, "and a short text at most");
            whole.release();
            return;
        }
        long granted = 0;
        int ranges = 0;
        for (Body.Segment segment : answer.body().segments()) {
            if (!segment.isLiteral()) {
                assertTrue(segment.offset() >= 0 && segment.length() > 0 && segment.offset() + segment.length() <= size,
                    "range " + segment.offset() + "+" + segment.length() + " of " + size + " bytes");
                granted += segment.length();
                ranges++;
            }
        }
        if (method.equals(HttpMethod.HEAD) || size == 0) {
            assertTrue(answer.body().isEmpty(), "no body to a HEAD or of an empty object");
        }
        if (status == 200) {
            assertTrue(answer.body().isEmpty() || granted == size, "a 200 sends the object once");
            assertEquals(size, HttpUtil.getContentLength(answer.head()), "a 200's length is the object's");
            assertNull(answer.head().headers().get(HttpHeaderNames.CONTENT_RANGE));
            return;
        }
        assertEquals(206, status);
        assertTrue(ranges >= 1 && ranges <= maxRanges, ranges + " ranges, at most " + maxRanges);
        assertTrue(answer.body().length() <= granted + (ranges + 1) * PART_HEADERS,
            "a body of " + answer.body().length() + " bytes for " + granted + " bytes of ranges");
        assertEquals(answer.body().length(), HttpUtil.getContentLength(answer.head()), "Content-Length is the body's");
        assertTrue(granted <= (long) maxRanges * size, "no more bytes than " + maxRanges + " whole objects");
    }
}
