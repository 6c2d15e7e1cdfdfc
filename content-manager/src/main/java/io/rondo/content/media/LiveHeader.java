package io.rondo.content.media;

/**
 * What a player needs before a live recording's first fragment.
 *
 * @param container {@code mp4} (fragmented) or {@code webm}
 * @param mimeType  {@code video/mp4}, {@code audio/webm}, ...
 * @param codecs    the codecs string of {@code MediaSource.isTypeSupported}, e.g. {@code avc1.64001F, mp4a.40.2}
 * @param init      the initialization segment: {@code ftyp} + {@code moov}, or the EBML header to
 *                  the first Cluster with the Segment of unknown size
 */
public record LiveHeader(String container, String mimeType, String codecs, byte[] init) {
}
