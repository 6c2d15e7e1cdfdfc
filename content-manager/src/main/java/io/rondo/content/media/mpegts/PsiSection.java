package io.rondo.content.media.mpegts;

import java.nio.ByteBuffer;

/** A PSI section being assembled. */
final class PsiSection {
    final byte[] bytes = new byte[MpegTsDemuxer.MAX_SECTION_BYTES];
    int length;
    boolean started;

    void append(ByteBuffer data) {
        int n = Math.min(data.remaining(), bytes.length - length);
        data.get(data.position(), bytes, length, n);
        length += n;
    }
}
