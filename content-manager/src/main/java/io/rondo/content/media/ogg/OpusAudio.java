package io.rondo.content.media.ogg;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Ticks;
import io.rondo.content.media.matroska.Ebml;
import io.rondo.content.media.matroska.EbmlWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Opus (RFC 7845): the OpusHead, the OpusTags, and packet durations from their TOC byte. */
final class OpusAudio implements OggAudio {
    private static final long OPUS_RATE = 48_000;
    private static final long OPUS_SEEK_PRE_ROLL_NS = 80_000_000L;
    private static final int SEEK_PRE_ROLL = 0x56BB;
    private static final int[] SILK_MS10 = {100, 200, 400, 600};
    private final byte[] head;
    private final int channels;
    private final int preSkip;

    OpusAudio(byte[] head) throws MediaFormatException {
        this.head = head;
        ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        channels = h.get(9) & 0xFF;
        preSkip = h.getShort(10) & 0xFFFF;
        if (channels == 0 || (h.get(18) & 0xFF) != 0 && head.length < 21 + channels) {
            throw MediaFormatException.corrupt("the OpusHead gives " + channels + " channels and mapping family "
                + (h.get(18) & 0xFF) + " in " + head.length + " bytes");
        }
    }

    @Override
    public boolean header(int n, byte[] packet, int length) throws MediaFormatException {
        if (n == 1) {
            if (length < 8 || !OggWebmRemuxer.startsWith(Arrays.copyOf(packet, 8), 0, "OpusTags")) {
                throw MediaFormatException.corrupt("the Opus stream's second packet is no OpusTags");
            }
            return true;
        }
        return false;
    }

    @Override
    public long durationSamples(byte[] packet, int length) throws MediaFormatException {
        int toc = packet[0] & 0xFF;
        int config = toc >>> 3;
        long frameSamples;
        if (config < 12) {
            frameSamples = SILK_MS10[config & 3] * OPUS_RATE / 10_000;
        } else if (config < 16) {
            frameSamples = (config & 1) == 0 ? 480 : 960;
        } else {
            frameSamples = 120L << (config & 3);
        }
        int code = toc & 3;
        int frames = code == 0 ? 1 : code < 3 ? 2 : length > 1 ? packet[1] & 0x3F : 0;
        if (frames == 0) {
            throw MediaFormatException.corrupt("an Opus packet of code 3 gives no frame count");
        }
        return frames * frameSamples;
    }

    @Override
    public long rate() {
        return OPUS_RATE;
    }

    @Override
    public int channels() {
        return channels;
    }

    @Override
    public int headers() {
        return 2;
    }

    @Override
    public boolean firstPacketPlaysNothing() {
        return false;
    }

    @Override
    public long longestPacket() {
        return OPUS_RATE * 120 / 1000;
    }

    @Override
    public String codecs() {
        return "opus";
    }

    @Override
    public byte[] trackEntry() {
        long codecDelayNs = preSkip * Ticks.NS_PER_SECOND / OPUS_RATE;
        return OggAudio.trackEntry("A_OPUS", head, this, EbmlWriter.uint(Ebml.CODEC_DELAY, codecDelayNs),
            EbmlWriter.uint(SEEK_PRE_ROLL, OPUS_SEEK_PRE_ROLL_NS));
    }
}
