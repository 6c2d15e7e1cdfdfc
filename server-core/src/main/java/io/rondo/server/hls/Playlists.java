package io.rondo.server.hls;

import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * An object's HLS playlists (RFC 8216 and draft-pantos-hls-rfc8216bis), every URI the object's own
 * URL with a byte range of its stored copy, so nothing is stored twice: the init segment
 * ({@code EXT-X-MAP}), each segment of whole rounds ({@link HlsSegments}), each round an
 * {@code EXT-X-PART} where parts are listed. A recording still being written gets an EVENT
 * playlist for Low-Latency HLS: parts for its newest segments, blocking reloads, the program
 * date-time of its start, and a preload hint of the next part.
 */
public final class Playlists {

    /** The content type of every playlist. */
    public static final String CONTENT_TYPE = "application/vnd.apple.mpegurl";

    /** The query parameter that names a session in every URL of its playlist. */
    public static final String SESSION = "session";

    /**
     * The query parameter ({@code parts=1}) that asks a finished object's playlist for a part per
     * round too, for a client that fetches round by round; without it only a recording's newest
     * segments list their parts, as the specification asks (parts older than three target durations
     * are left out).
     */
    public static final String PARTS = "parts";

    /** Target durations a live playlist holds back from its end (the specification's least). */
    private static final int HOLD_BACK_TARGETS = 3;

    /** Parts a live playlist holds back from its end (the specification asks for at least two). */
    private static final int PART_HOLD_BACK = 3;

    private Playlists() {
    }

    /**
     * The multivariant playlist of {@code name}: one variant, the media playlist of session
     * {@code session}.
     */
    public static String multivariant(String name, MediaIndex media, String session, boolean parts) {
        long peak = Math.max(1, Math.max(media.peakBitRate(), media.averageBitRate()));
        return "#EXTM3U\n"
            + "#EXT-X-VERSION:6\n"
            + "#EXT-X-INDEPENDENT-SEGMENTS\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=" + peak + ",AVERAGE-BANDWIDTH=" + Math.max(1, media.averageBitRate())
            + ",CODECS=\"" + String.join(",", HlsCodecs.codecs(media)) + "\"\n"
            + playlistUri(name, session) + (parts ? "&" + PARTS + "=1" : "") + "\n";
    }

    /**
     * What a media playlist is made of.
     *
     * @param name         the object's name
     * @param session      the session its URLs carry
     * @param media        the media now (a recording's, as far as it is cut)
     * @param growing      whether the recording is still being written
     * @param roundNs      the length of a round: a live playlist's part target
     * @param startEpochMs when the media's time zero was recorded (a recording's start), or -1 if unknown
     * @param allParts     whether every round is listed as a part, not only a recording's newest
     */
    public record Media(String name, String session, MediaIndex media, boolean growing, long roundNs,
                        long startEpochMs, boolean allParts) {

        /** This playlist with the media as it is now. */
        public Media now(MediaIndex current, boolean stillGrowing) {
            return new Media(name, session, current, stillGrowing, roundNs, startEpochMs, allParts);
        }

        /** The segments, the last one open while the recording grows. */
        public List<HlsSegments.Segment> segments() {
            return HlsSegments.of(media.fragments(), !growing);
        }
    }

    /** The media playlist. */
    public static String media(Media spec) {
        List<HlsSegments.Segment> segments = spec.segments();
        List<Fragment> fragments = spec.media().fragments();
        String uri = objectUri(spec.name(), spec.session());
        int target = targetSeconds(segments, spec.growing());
        double partTarget = partTargetSeconds(fragments, spec.growing() ? spec.roundNs() : 0);
        long partsFromNs = partsFromNs(spec, segments, target);
        boolean parts = partsFromNs != Long.MAX_VALUE;
        StringBuilder out = new StringBuilder(256 + 160 * fragments.size());
        out.append("#EXTM3U\n#EXT-X-VERSION:").append(parts ? 9 : 7).append("\n#EXT-X-TARGETDURATION:").append(target)
            .append('\n');
        if (parts) {
            out.append("#EXT-X-PART-INF:PART-TARGET=").append(seconds(partTarget)).append('\n');
        }
        if (spec.growing()) {
            out.append("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=")
                .append(seconds(PART_HOLD_BACK * partTarget)).append(",HOLD-BACK=")
                .append(seconds(HOLD_BACK_TARGETS * (double) target)).append('\n');
        }
        out.append("#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:").append(spec.growing() ? "EVENT" : "VOD")
            .append('\n');
        if (segments.stream().allMatch(HlsSegments.Segment::keyframe)) {
            out.append("#EXT-X-INDEPENDENT-SEGMENTS\n");
        }
        ByteRange init = spec.media().init();
        out.append("#EXT-X-MAP:URI=\"").append(uri).append("\",BYTERANGE=\"").append(range(init.length(),
            init.offset())).append("\"\n");
        if (spec.startEpochMs() >= 0 && !segments.isEmpty()) {
            out.append("#EXT-X-PROGRAM-DATE-TIME:")
                .append(Instant.ofEpochMilli(spec.startEpochMs() + segments.get(0).startNs() / 1_000_000))
                .append('\n');
        }
        for (HlsSegments.Segment segment : segments) {
            if (segment.startNs() + segment.durationNs() > partsFromNs) {
                for (int i = segment.first(); i <= segment.last(); i++) {
                    part(out, fragments.get(i), uri);
                }
            }
            if (segment.closed()) {
                out.append("#EXTINF:").append(seconds(segment.durationNs() / 1e9)).append(",\n#EXT-X-BYTERANGE:")
                    .append(range(segment.length(), segment.offset())).append('\n').append(uri).append('\n');
            }
        }
        if (spec.growing()) {
            long next = fragments.isEmpty() ? init.offset() + init.length()
                : fragments.get(fragments.size() - 1).offset() + fragments.get(fragments.size() - 1).length();
            out.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"").append(uri).append("\",BYTERANGE-START=").append(next)
                .append('\n');
        } else {
            out.append("#EXT-X-ENDLIST\n");
        }
        return out.toString();
    }

    /**
     * From which media time segments list their parts: every one's if asked; none of a finished
     * object's ({@link Long#MAX_VALUE}); a recording's within three target durations of its end.
     */
    private static long partsFromNs(Media spec, List<HlsSegments.Segment> segments, int target) {
        if (spec.allParts() || spec.growing() && segments.isEmpty()) {
            return Long.MIN_VALUE;
        }
        if (!spec.growing()) {
            return Long.MAX_VALUE;
        }
        HlsSegments.Segment last = segments.get(segments.size() - 1);
        return last.startNs() + last.durationNs() - HOLD_BACK_TARGETS * (long) target * 1_000_000_000L;
    }

    private static void part(StringBuilder out, Fragment fragment, String uri) {
        out.append("#EXT-X-PART:DURATION=").append(seconds(fragment.durationNs() / 1e9)).append(",URI=\"").append(uri)
            .append("\",BYTERANGE=\"").append(range(fragment.length(), fragment.offset())).append('"');
        if (fragment.keyframeFirst()) {
            out.append(",INDEPENDENT=YES");
        }
        out.append('\n');
    }

    /**
     * Whether a playlist of {@code segments} holds what a blocking reload asks for: segment
     * {@code msn} complete ({@code part} -1), or its part {@code part}.
     */
    public static boolean holds(List<HlsSegments.Segment> segments, long msn, long part) {
        if (msn >= segments.size()) {
            return false;
        }
        HlsSegments.Segment segment = segments.get((int) msn);
        return segment.closed() || part >= 0 && part <= segment.last() - segment.first();
    }

    /**
     * The target duration: every segment's duration, rounded to the nearest second, is at most it;
     * a live playlist's is at least the six seconds aimed at, since it may not change as it grows.
     */
    static int targetSeconds(List<HlsSegments.Segment> segments, boolean growing) {
        long most = growing ? HlsSegments.TARGET_NS : 1_000_000_000L;
        for (HlsSegments.Segment segment : segments) {
            most = Math.max(most, segment.durationNs());
        }
        return (int) Math.max(1, Math.round(most / 1e9));
    }

    private static double partTargetSeconds(List<Fragment> fragments, long leastNs) {
        long most = leastNs;
        for (Fragment fragment : fragments) {
            most = Math.max(most, fragment.durationNs());
        }
        return Math.max(most, 1_000_000) / 1e9;
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    private static String range(long length, long offset) {
        return length + "@" + offset;
    }

    /** The object's URL relative to its playlist, carrying the session. */
    static String objectUri(String name, String session) {
        return lastSegment(name) + "?" + SESSION + "=" + session;
    }

    /** The media playlist's URL relative to the multivariant one. */
    static String playlistUri(String name, String session) {
        return lastSegment(name) + ".m3u8?" + SESSION + "=" + session;
    }

    /** The last segment of {@code name}'s path, percent-encoded as an RFC 3986 path segment. */
    private static String lastSegment(String name) {
        byte[] bytes = name.substring(name.lastIndexOf('/') + 1).getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~!$&'()*+,;=:@".indexOf(c)
                >= 0 && c != '\'') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                    .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
