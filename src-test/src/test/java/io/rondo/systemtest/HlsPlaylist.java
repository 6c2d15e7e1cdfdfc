package io.rondo.systemtest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a test needs of an HLS playlist, read as a client reads it: a multivariant playlist's
 * variant URIs, or a media playlist's init segment, segments and parts as byte ranges of one
 * resource, its preload hint and whether it has ended. It judges nothing: {@link PlaylistCheck}
 * validates playlists against the specification.
 */
record HlsPlaylist(String text, List<String> variants, Range map, List<Segment> segments, List<Part> pendingParts,
                   Long preloadStart, boolean endList, Map<String, String> tags) {

    private static final Pattern ATTRIBUTE = Pattern.compile("([A-Z0-9-]+)=(\"[^\"]*\"|[^,]*)");

    /** A byte range of {@code uri}: {@code length} bytes from {@code offset}. */
    record Range(String uri, long offset, long length) {

        /** The HTTP Range header that asks for it. */
        String header() {
            return "bytes=" + offset + "-" + (offset + length - 1);
        }
    }

    /** A partial segment (EXT-X-PART): one round's fragment. */
    record Part(Range range, double seconds, boolean independent) {
    }

    /** A media segment (EXTINF and EXT-X-BYTERANGE) and the parts it is made of. */
    record Segment(Range range, double seconds, List<Part> parts) {
    }

    /** Reads {@code text}; a line it does not need is kept only in {@link #text}. */
    static HlsPlaylist parse(String text) {
        List<String> variants = new ArrayList<>();
        List<Segment> segments = new ArrayList<>();
        List<Part> parts = new ArrayList<>();
        Map<String, String> tags = new LinkedHashMap<>();
        Range map = null;
        Long preload = null;
        boolean endList = false;
        boolean variantNext = false;
        double seconds = 0;
        String byteRange = null;
        for (String line : text.split("\r?\n")) {
            String tag = line.contains(":") ? line.substring(0, line.indexOf(':')) : line;
            String value = line.substring(Math.min(line.length(), tag.length() + 1));
            if (line.isBlank()) {
                continue;
            } else if (!line.startsWith("#")) {
                if (variantNext) {
                    variants.add(line);
                    variantNext = false;
                } else {
                    segments.add(new Segment(range(line, byteRange), seconds, List.copyOf(parts)));
                    parts.clear();
                }
                continue;
            }
            tags.putIfAbsent(tag, value);
            switch (tag) {
                case "#EXT-X-STREAM-INF" -> variantNext = true;
                case "#EXT-X-MAP" -> {
                    Map<String, String> attributes = attributes(value);
                    map = range(attributes.get("URI"), attributes.get("BYTERANGE"));
                }
                case "#EXTINF" -> seconds = Double.parseDouble(value.substring(0, value.indexOf(',')));
                case "#EXT-X-BYTERANGE" -> byteRange = value;
                case "#EXT-X-PART" -> {
                    Map<String, String> attributes = attributes(value);
                    parts.add(new Part(range(attributes.get("URI"), attributes.get("BYTERANGE")),
                        Double.parseDouble(attributes.get("DURATION")), "YES".equals(attributes.get("INDEPENDENT"))));
                }
                case "#EXT-X-PRELOAD-HINT" -> preload = Long.valueOf(attributes(value).get("BYTERANGE-START"));
                case "#EXT-X-ENDLIST" -> endList = true;
                default -> {
                    // Kept in tags only.
                }
            }
        }
        return new HlsPlaylist(text, List.copyOf(variants), map, List.copyOf(segments), List.copyOf(parts), preload,
            endList, Map.copyOf(tags));
    }

    /** Every part, of the listed segments and then of the one being cut, in order. */
    List<Part> parts() {
        List<Part> all = new ArrayList<>();
        segments.forEach(segment -> all.addAll(segment.parts()));
        all.addAll(pendingParts);
        return all;
    }

    /** The summed EXTINF durations, in seconds. */
    double seconds() {
        return segments.stream().mapToDouble(Segment::seconds).sum();
    }

    /** The value of the first {@code tag} (e.g. {@code #EXT-X-PLAYLIST-TYPE}), or null. */
    String tag(String tag) {
        return tags.get(tag);
    }

    /** The attributes of an attribute list ({@code A=1,B="x,y"}), quotes taken off. */
    static Map<String, String> attributes(String list) {
        Map<String, String> attributes = new LinkedHashMap<>();
        Matcher m = ATTRIBUTE.matcher(list);
        while (m.find()) {
            attributes.put(m.group(1), m.group(2).replace("\"", ""));
        }
        return attributes;
    }

    private static Range range(String uri, String lengthAtOffset) {
        if (lengthAtOffset == null) {
            throw new IllegalArgumentException(uri + " has no byte range");
        }
        String[] parts = lengthAtOffset.split("@");
        return new Range(uri, Long.parseLong(parts[1]), Long.parseLong(parts[0]));
    }
}
