package io.rondo.client.protocol;

/**
 * PUBLISH: a client asks to record a stream it sends (papers/000 Section 1: guaranteed-rate writes,
 * as a camera records). The server answers ACCEPT, after which the client sends the container's
 * bytes in MEDIA frames and ends with CLOSE, or REJECT. Its header carries the client's protocol
 * version, as OPEN's does. A connection carries a PUBLISH or an OPEN, never both.
 *
 * @param objectName the name the recording gets in the catalog; not empty
 * @param container the container the MEDIA bytes are in: {@link #MP4} or {@link #WEBM} (a server
 *     refuses another with {@link RejectReason#UNSUPPORTED_MEDIA})
 * @param peakBitsPerSecond the most the publisher sends, in bits per second; positive. Admission
 *     charges the recording this rate, and a publisher that sends faster is ended with
 *     {@link ErrorCode#RATE_EXCEEDED}
 * @param token a bearer token with the {@code publish} scope; may be empty, and then is refused
 */
public record Publish(String objectName, String container, long peakBitsPerSecond, String token) implements Frame {
    /** Fragmented MP4, as {@code ffmpeg -f mp4 -movflags +frag_keyframe+empty_moov+default_base_moof} writes it. */
    public static final String MP4 = "mp4";
    /** WebM (Matroska) written live, as {@code ffmpeg -f webm} and a browser's MediaRecorder write it. */
    public static final String WEBM = "webm";

    /** Checks the name is non-empty, the strings fit their length prefixes, the rate positive. */
    public Publish {
        if (Wire.utf8(objectName, "objectName").length == 0) {
            throw new IllegalArgumentException("objectName is empty");
        }
        Wire.utf8(container, "container");
        Wire.positive(peakBitsPerSecond, "peakBitsPerSecond");
        Wire.utf8(token, "token");
    }

    @Override
    public FrameType type() {
        return FrameType.PUBLISH;
    }

    /** Says whether a token was given, never the token: frames end up in logs. */
    @Override
    public String toString() {
        return "Publish[objectName=" + objectName + ", container=" + container + ", peakBitsPerSecond="
                + peakBitsPerSecond + ", token=" + (token.isEmpty() ? "none" : "(" + token.length() + " characters)")
                + "]";
    }
}
