package io.rondo.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.server.hls.HlsCodecs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the web player needs to know of an object before it opens a stream, as JSON at
 * {@code /player/info/NAME}: ACCEPT carries the codecs and the init segment, but not the duration
 * (for the seek bar) nor the fragment sizes (for the client profile it declares).
 *
 * <pre>{@code
 * {"name":"/videos/a.webm","kind":"continuous","mimeType":"video/webm","mseType":"video/webm; codecs=\"vp9,opus\"",
 *  "size":171183,"etag":"\"...\"","durationNs":6000000000,"fragments":6,"bitsPerSecond":228244,
 *  "peakBitsPerSecond":263040,"peakFragmentBytes":32880,"live":false,"streamPath":"/stream",
 *  "hlsUnavailable":"/videos/a.webm is WEBM, which HLS cannot carry: ..."}
 * }</pre>
 *
 * <p>{@code live} is true while the object is being recorded: the player opens it at its live edge.
 * {@code hls} is the object's HLS playlist (docs/hls.md) where HLS can carry it, which a browser
 * without Media Source Extensions plays itself; {@code hlsUnavailable} says why not otherwise.
 */
final class MediaInfo {

    /** Where the info of object {@code /a/b} is: {@code /player/info/a/b}. */
    static final String PREFIX = "/player/info/";

    private static final ObjectMapper JSON = new ObjectMapper();

    private MediaInfo() {
    }

    static byte[] render(MediaObject object, boolean live) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", object.name());
        info.put("kind", object.media() == null ? "discrete" : "continuous");
        info.put("mimeType", object.mimeType());
        MediaIndex media = object.media();
        if (media != null) {
            info.put("mseType", media.mseType());
        }
        info.put("size", object.size());
        info.put("etag", object.etag());
        if (media != null) {
            info.put("durationNs", media.durationNs());
            info.put("fragments", media.fragments().size());
            info.put("bitsPerSecond", media.averageBitRate());
            info.put("peakBitsPerSecond", media.peakBitRate());
            info.put("peakFragmentBytes", media.peakFragmentBytes());
            info.put("live", live);
            info.put("streamPath", HttpInitializer.STREAM_PATH);
            String refusal = HlsCodecs.refusal(object.name(), media);
            if (refusal == null) {
                info.put("hls", object.name() + HlsRoutes.PLAYLIST_SUFFIX);
            } else {
                info.put("hlsUnavailable", refusal);
            }
        }
        try {
            return JSON.writeValueAsBytes(info);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an object's info could not be written as JSON", e);
        }
    }
}
