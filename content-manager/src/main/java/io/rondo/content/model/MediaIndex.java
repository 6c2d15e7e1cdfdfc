package io.rondo.content.model;

import java.util.List;

/**
 * What a container indexer finds in a continuous object: what a browser's MediaSource needs to
 * play it and the fragment table the scheduler reads it by.
 *
 * @param container       {@code webm} or {@code mp4} (fragmented)
 * @param mimeType        {@code video/webm}, {@code audio/mp4}, ...
 * @param codecs          the codecs string of {@code MediaSource.isTypeSupported}, e.g.
 *                        {@code vp8, vorbis} or {@code avc1.42C01E, mp4a.40.2}
 * @param durationNs      the media's duration
 * @param init            the initialization segment (EBML header to the first cluster; ftyp + moov)
 * @param fragments       the fragments, in order, contiguous, covering everything after {@code init}
 */
public record MediaIndex(String container, String mimeType, String codecs, long durationNs, ByteRange init,
                         List<Fragment> fragments) {

    public MediaIndex {
        fragments = List.copyOf(fragments);
    }

    /** {@code video/webm; codecs="vp8, vorbis"}: what MediaSource.addSourceBuffer takes. */
    public String mseType() {
        return codecs.isEmpty() ? mimeType : mimeType + "; codecs=\"" + codecs + "\"";
    }

    /** Bits per second over the whole media after the init segment. */
    public long averageBitRate() {
        long bytes = fragments.stream().mapToLong(Fragment::length).sum();
        return durationNs <= 0 ? 0 : (long) (bytes * 8e9 / durationNs);
    }

    /** The bytes of the largest fragment: what a stream's buffers and a client's profile must hold. */
    public long peakFragmentBytes() {
        return fragments.stream().mapToLong(Fragment::length).max().orElse(0);
    }

    /** The highest bit rate of any one fragment. */
    public long peakBitRate() {
        return fragments.stream().filter(f -> f.durationNs() > 0)
            .mapToLong(f -> (long) (f.length() * 8e9 / f.durationNs())).max().orElse(0);
    }
}
