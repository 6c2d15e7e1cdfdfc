package io.rondo.content.media.ogg;

import io.rondo.content.media.MediaFormatException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Vorbis I: the three headers, and packet durations from the modes' block sizes. */
final class VorbisAudio implements OggAudio {
    private final byte[] identification;
    private final int channels;
    private final long rate;
    private final int[] blockSizes = new int[2];
    private byte[] comment;
    private byte[] setup;
    private boolean[] modeLong;
    private int modeBits;
    private int previousBlock;

    VorbisAudio(byte[] identification) throws MediaFormatException {
        this.identification = identification;
        ByteBuffer id = ByteBuffer.wrap(identification).order(ByteOrder.LITTLE_ENDIAN);
        channels = id.get(11) & 0xFF;
        rate = id.getInt(12) & 0xFFFF_FFFFL;
        blockSizes[0] = 1 << (id.get(28) & 0x0F);
        blockSizes[1] = 1 << ((id.get(28) & 0xF0) >>> 4);
        if (channels == 0 || rate == 0 || blockSizes[0] < 64 || blockSizes[1] < blockSizes[0]
            || blockSizes[1] > 8192) {
            throw MediaFormatException.corrupt("the Vorbis identification header gives " + channels + " channels, "
                + rate + " Hz and block sizes " + blockSizes[0] + " and " + blockSizes[1]);
        }
        previousBlock = blockSizes[0];
    }

    @Override
    public boolean header(int n, byte[] packet, int length) throws MediaFormatException {
        if (n == 1 && length >= 7 && packet[0] == 3) {
            comment = vendorOnly(packet, length);
            return true;
        }
        if (n == 2 && length >= 7 && packet[0] == 5) {
            setup = Arrays.copyOf(packet, length);
            modes();
            return true;
        }
        if (n <= 2) {
            throw MediaFormatException.corrupt("the Vorbis stream's header " + (n + 1) + " is missing");
        }
        return false;
    }

    /** The comment header with the vendor string and no comments. */
    private static byte[] vendorOnly(byte[] packet, int length) throws MediaFormatException {
        long vendor = length >= 11 ? ByteBuffer.wrap(packet, 7, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()
            & 0xFFFF_FFFFL : -1;
        if (vendor < 0 || 11 + vendor > length) {
            throw MediaFormatException.corrupt("the Vorbis comment header's vendor string runs past its end");
        }
        ByteBuffer out = ByteBuffer.allocate(11 + (int) vendor + 5).order(ByteOrder.LITTLE_ENDIAN);
        out.put(packet, 0, 11 + (int) vendor);
        out.putInt(0);
        out.put((byte) 1);
        return out.array();
    }

    /** The modes' block flags, read backwards from the framing bit at the end of the setup header. */
    private void modes() throws MediaFormatException {
        BackwardBits bits = new BackwardBits(setup);
        int framing = -1;
        while (bits.left() > 97) {
            if (bits.bit() == 1) {
                framing = bits.position();
                break;
            }
        }
        if (framing < 0) {
            throw MediaFormatException.corrupt("the Vorbis setup header has no framing bit");
        }
        int modes = 0;
        int count = 0;
        while (bits.left() >= 97) {
            if (bits.bits(8) > 63 || bits.bits(16) != 0 || bits.bits(16) != 0) {
                break;
            }
            bits.bits(1);
            count++;
            if (count > 64) {
                break;
            }
            if (bits.copy().bits(6) + 1 == count) {
                modes = count;
            }
        }
        if (modes == 0) {
            throw MediaFormatException.corrupt("the Vorbis setup header's modes cannot be found");
        }
        modeLong = new boolean[modes];
        bits.seek(framing);
        for (int i = modes - 1; i >= 0; i--) {
            bits.bits(40);
            modeLong[i] = bits.bit() == 1;
        }
        modeBits = 32 - Integer.numberOfLeadingZeros(modes - 1);
    }

    @Override
    public long durationSamples(byte[] packet, int length) throws MediaFormatException {
        if ((packet[0] & 1) != 0) {
            throw MediaFormatException.corrupt("a Vorbis audio packet is marked as a header");
        }
        int mode = modeBits == 0 ? 0 : (packet[0] >>> 1) & ((1 << modeBits) - 1);
        if (mode >= modeLong.length) {
            throw MediaFormatException.corrupt("a Vorbis packet uses mode " + mode + " of " + modeLong.length);
        }
        int previous = previousBlock;
        if (modeLong[mode]) {
            boolean previousLong = length > 0 && (packet[0] & (1 << (modeBits + 1))) != 0;
            previous = blockSizes[previousLong ? 1 : 0];
        }
        int current = blockSizes[modeLong[mode] ? 1 : 0];
        previousBlock = current;
        return (previous + current) / 4;
    }

    @Override
    public long rate() {
        return rate;
    }

    @Override
    public int channels() {
        return channels;
    }

    @Override
    public int headers() {
        return 3;
    }

    @Override
    public boolean firstPacketPlaysNothing() {
        return true;
    }

    @Override
    public long longestPacket() {
        return blockSizes[1] / 2;
    }

    @Override
    public String codecs() {
        return "vorbis";
    }

    @Override
    public byte[] trackEntry() {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        p.write(2);
        xiphLength(p, identification.length);
        xiphLength(p, comment.length);
        p.writeBytes(identification);
        p.writeBytes(comment);
        p.writeBytes(setup);
        return OggAudio.trackEntry("A_VORBIS", p.toByteArray(), this);
    }

    private static void xiphLength(ByteArrayOutputStream out, int length) {
        int n = length;
        while (n >= 255) {
            out.write(255);
            n -= 255;
        }
        out.write(n);
    }

    /** The bits of a Vorbis header from its last bit backwards: Vorbis packs bits from the low end of each byte. */
    private static final class BackwardBits {
        private final byte[] b;
        private int position;

        BackwardBits(byte[] b) {
            this.b = b;
        }

        int left() {
            return b.length * 8 - position;
        }

        int position() {
            return position;
        }

        void seek(int to) {
            position = to;
        }

        BackwardBits copy() {
            BackwardBits c = new BackwardBits(b);
            c.position = position;
            return c;
        }

        int bit() {
            int at = position++;
            return (b[b.length - 1 - at / 8] >>> (7 - at % 8)) & 1;
        }

        int bits(int n) {
            int v = 0;
            for (int i = 0; i < n && left() > 0; i++) {
                v = (v << 1) | bit();
            }
            return v;
        }
    }
}
