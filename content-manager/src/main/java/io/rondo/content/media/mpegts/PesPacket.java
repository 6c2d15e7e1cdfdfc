package io.rondo.content.media.mpegts;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.mpegts.MpegTsDemuxer.Stream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/** A PES packet being assembled. */
final class PesPacket {
    final Stream stream;
    byte[] bytes = new byte[MpegTsDemuxer.PACKET_BYTES * 8];
    int length;
    boolean started;
    boolean damaged;
    long startOffset;

    PesPacket(Stream stream) {
        this.stream = stream;
    }

    void append(ByteBuffer data, long offset) throws MediaFormatException {
        int n = data.remaining();
        if (length + n > MpegTsDemuxer.MAX_PES_BYTES) {
            throw MediaFormatException.unsupported("the PES packet of PID " + stream.pid() + " that starts at byte "
                + startOffset + " runs past byte " + offset + ", longer than the " + MpegTsDemuxer.MAX_PES_BYTES
                + " bytes Rondo takes for one");
        }
        if (length + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n));
        }
        data.get(data.position(), bytes, length, n);
        length += n;
    }
}
