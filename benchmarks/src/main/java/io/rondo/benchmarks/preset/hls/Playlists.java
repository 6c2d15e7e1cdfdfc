package io.rondo.benchmarks.preset.hls;

import java.net.URI;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What an HLS client takes from Rondo's playlists (RFC 8216bis): the multivariant playlist's one
 * variant, and the media playlist's init section ({@code EXT-X-MAP}) and parts ({@code
 * EXT-X-PART}), each a byte range of a URI resolved against the playlist's own path.
 */
final class Playlists {

    /** {@code length} bytes from {@code offset} of {@code path} (a path and query on the server). */
    record ByteRange(String path, long offset, long length) {
    }

    /** One part: its byte range and its media's duration. */
    record Part(ByteRange range, long durationNs) {
    }

    /** A media playlist's init section and parts, in order. */
    record Media(ByteRange init, List<Part> parts) {

        /** The same ranges of the file at {@code path}: what a plain file server is asked for. */
        Media at(String path) {
            List<Part> moved = new ArrayList<>(parts.size());
            for (Part part : parts) {
                moved.add(new Part(new ByteRange(path, part.range().offset(), part.range().length()),
                    part.durationNs()));
            }
            return new Media(new ByteRange(path, init.offset(), init.length()), List.copyOf(moved));
        }
    }

    /**
     * A part of a live playlist: segment {@code msn}'s part {@code index}, its byte range, and when
     * its media ends, from the playlist's {@code EXT-X-PROGRAM-DATE-TIME}.
     */
    record LivePart(long msn, int index, ByteRange range, long durationNs, long endFromDateNs) {
    }

    /**
     * A live (EVENT) media playlist: the parts it lists, the wall-clock time its first segment starts at
     * (epoch milliseconds; {@link Long#MIN_VALUE} where it names none, as once the recording is over),
     * whether the recording has ended ({@code EXT-X-ENDLIST}), and the media sequence number of the
     * segment after the last closed one.
     */
    record Live(List<LivePart> parts, long programDateEpochMs, boolean ended, long openMsn) {

        /** The part to ask for after the last one listed, {msn, part}: its segment's next or the next's first. */
        long[] nextAfterLast() {
            LivePart last = parts.get(parts.size() - 1);
            return last.msn() < openMsn ? new long[] {openMsn, 0} : new long[] {last.msn(), last.index() + 1};
        }
    }

    private Playlists() {
    }

    /**
     * The parts of a live media playlist, each with its segment's media sequence number and its
     * index in that segment, which a blocking reload ({@code _HLS_msn}, {@code _HLS_part}) names.
     *
     * @throws IllegalArgumentException if it is not a playlist
     */
    static Live live(String text, String playlistPath) {
        List<LivePart> parts = new ArrayList<>();
        long msn = 0;
        int index = 0;
        long segmentStartNs = 0;
        long partEndNs = 0;
        long dateMs = Long.MIN_VALUE;
        boolean ended = false;
        for (String line : lines(text)) {
            if (line.startsWith("#EXT-X-MEDIA-SEQUENCE:")) {
                msn = Long.parseLong(line.substring(line.indexOf(':') + 1));
            } else if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) {
                dateMs = OffsetDateTime.parse(line.substring(line.indexOf(':') + 1)).toInstant()
                    .toEpochMilli();
            } else if (line.startsWith("#EXT-X-PART:")) {
                long durationNs = seconds(attribute(line, "DURATION"));
                ByteRange range = range(line, playlistPath, 0);
                partEndNs += durationNs;
                parts.add(new LivePart(msn, index++, range, durationNs, segmentStartNs + partEndNs));
            } else if (line.startsWith("#EXTINF:")) {
                String duration = line.substring(line.indexOf(':') + 1);
                segmentStartNs += seconds(duration.substring(0, duration.indexOf(',') < 0 ? duration.length()
                    : duration.indexOf(',')));
                msn++;
                index = 0;
                partEndNs = 0;
            } else if (line.equals("#EXT-X-ENDLIST")) {
                ended = true;
            }
        }
        return new Live(List.copyOf(parts), dateMs, ended, msn);
    }

    private static long seconds(String text) {
        return Math.round(Double.parseDouble(text) * TimeUnit.SECONDS.toNanos(1));
    }

    /**
     * The path of the first variant a multivariant playlist names.
     *
     * @param playlistPath the path the playlist was fetched from, which relative URIs resolve against
     * @throws IllegalArgumentException if it is not a playlist or names no variant
     */
    static String variant(String text, String playlistPath) {
        List<String> lines = lines(text);
        for (int i = 0; i < lines.size() - 1; i++) {
            if (lines.get(i).startsWith("#EXT-X-STREAM-INF:") && !lines.get(i + 1).startsWith("#")) {
                return resolve(playlistPath, lines.get(i + 1));
            }
        }
        throw new IllegalArgumentException("a multivariant playlist without #EXT-X-STREAM-INF and its URI");
    }

    /**
     * The init section and parts of a media playlist.
     *
     * @param playlistPath the path the playlist was fetched from, which relative URIs resolve against
     * @throws IllegalArgumentException if it is not a playlist, has no EXT-X-MAP with a BYTERANGE, or no part
     */
    static Media media(String text, String playlistPath) {
        ByteRange init = null;
        List<Part> parts = new ArrayList<>();
        long nextOffset = 0;
        String lastPath = null;
        for (String line : lines(text)) {
            if (line.startsWith("#EXT-X-MAP:")) {
                init = range(line, playlistPath, 0);
            } else if (line.startsWith("#EXT-X-PART:")) {
                String path = resolve(playlistPath, attribute(line, "URI"));
                ByteRange range = range(line, playlistPath, path.equals(lastPath) ? nextOffset : 0);
                parts.add(new Part(range, seconds(attribute(line, "DURATION"))));
                nextOffset = range.offset() + range.length();
                lastPath = path;
            }
        }
        if (init == null || parts.isEmpty()) {
            throw new IllegalArgumentException("a media playlist without an #EXT-X-MAP byte range or #EXT-X-PART");
        }
        return new Media(init, List.copyOf(parts));
    }

    private static List<String> lines(String text) {
        List<String> lines = text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
        if (lines.isEmpty() || !lines.get(0).equals("#EXTM3U")) {
            throw new IllegalArgumentException("not a playlist: it does not start with #EXTM3U");
        }
        return lines;
    }

    /** A tag's URI and BYTERANGE="LENGTH[@OFFSET]" attributes; without an offset, the range starts at {@code next}. */
    private static ByteRange range(String line, String playlistPath, long next) {
        String path = resolve(playlistPath, attribute(line, "URI"));
        String range = attribute(line, "BYTERANGE");
        int at = range.indexOf('@');
        long length = Long.parseLong(at < 0 ? range : range.substring(0, at));
        long offset = at < 0 ? next : Long.parseLong(range.substring(at + 1));
        if (length <= 0 || offset < 0) {
            throw new IllegalArgumentException("a byte range of no bytes: " + line);
        }
        return new ByteRange(path, offset, length);
    }

    /** The value of {@code NAME=VALUE} or {@code NAME="VALUE"} in a tag's attribute list. */
    static String attribute(String line, String name) {
        int colon = line.indexOf(':');
        String list = line.substring(colon + 1);
        int i = 0;
        while (i < list.length()) {
            int equals = list.indexOf('=', i);
            if (equals < 0) {
                break;
            }
            String key = list.substring(i, equals).strip();
            int end;
            String value;
            if (equals + 1 < list.length() && list.charAt(equals + 1) == '"') {
                int close = list.indexOf('"', equals + 2);
                if (close < 0) {
                    throw new IllegalArgumentException("an unclosed quoted attribute: " + line);
                }
                value = list.substring(equals + 2, close);
                end = close + 1;
            } else {
                int comma = list.indexOf(',', equals);
                end = comma < 0 ? list.length() : comma;
                value = list.substring(equals + 1, end);
            }
            if (key.equals(name)) {
                return value;
            }
            i = end + 1;
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT, "no %s in: %s", name, line));
    }

    /** {@code uri} resolved against {@code playlistPath}: the path and query to GET. */
    static String resolve(String playlistPath, String uri) {
        URI resolved = URI.create("http://server" + playlistPath).resolve(uri);
        return resolved.getRawPath() + (resolved.getRawQuery() == null ? "" : "?" + resolved.getRawQuery());
    }
}
