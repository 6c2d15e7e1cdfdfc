package io.rondo.content.media.ogg;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.matroska.Ebml;
import io.rondo.content.media.matroska.EbmlWriter;
import java.util.ArrayList;
import java.util.List;

/** A codec's headers and the duration of each of its packets, in samples. */
interface OggAudio {

    /** TrackUID. */
    int TRACK_UID = 0x73C5;
    /** TrackType of audio. */
    int AUDIO_TRACK = 2;

    /** How many header packets the stream starts with, the first included. */
    int headers();

    /** Whether the first audio packet only primes the decoder, which plays it from the second on (Vorbis). */
    boolean firstPacketPlaysNothing();

    /** The most samples one packet holds. */
    long longestPacket();

    /** Takes header packet {@code n} (1 the second); returns whether it was one. */
    boolean header(int n, byte[] packet, int length) throws MediaFormatException;

    long durationSamples(byte[] packet, int length) throws MediaFormatException;

    long rate();

    int channels();

    byte[] trackEntry();

    String codecs();

    /** A TrackEntry of track 1, audio, with {@code codec} and its private data. */
    static byte[] trackEntry(String codecId, byte[] codecPrivate, OggAudio audio, byte[]... more) {
        List<byte[]> parts = new ArrayList<>(List.of(EbmlWriter.uint(Ebml.TRACK_NUMBER, 1),
            EbmlWriter.uint(TRACK_UID, 1), EbmlWriter.uint(Ebml.TRACK_TYPE, AUDIO_TRACK),
            EbmlWriter.string(Ebml.CODEC_ID, codecId), EbmlWriter.element(Ebml.CODEC_PRIVATE, codecPrivate)));
        parts.addAll(List.of(more));
        parts.add(EbmlWriter.element(Ebml.AUDIO, EbmlWriter.float64(Ebml.SAMPLING_FREQUENCY, audio.rate()),
            EbmlWriter.uint(Ebml.CHANNELS, audio.channels())));
        return EbmlWriter.element(Ebml.TRACK_ENTRY, parts.toArray(byte[][]::new));
    }
}
