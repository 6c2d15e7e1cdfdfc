package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.isobmff.IsoBoxes.Box;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * Finds the top-level boxes of an ISO BMFF stream as its bytes arrive, split anywhere: each box the
 * caller wants ({@code ftyp}, {@code moov}, {@code moof}, {@code mdat}) is handed over whole, with
 * its data in memory; any other ({@code free}, {@code styp}, {@code sidx}, {@code prft}, {@code emsg},
 * ...) is skipped as it passes, never held. A box held whole is at most {@link #MAX_BOX_BYTES}.
 */
final class LiveBoxReader {

    /** The largest box held in memory: an mdat of 10 s of 50 Mbit/s video is 62 MB. */
    static final int MAX_BOX_BYTES = 64 << 20;

    private static final Set<String> KEPT = Set.of("ftyp", "moov", "moof", "mdat");
    private static final Set<String> FIRST = Set.of("ftyp", "styp", "moov", "free", "skip", "wide", "pdin", "sidx");

    /** What is given each box kept: the box and its data (after the header), a buffer of its own. */
    @FunctionalInterface
    interface BoxSink {
        void box(Box box, ByteBuffer data) throws MediaFormatException;
    }

    private final ByteBuffer head = ByteBuffer.allocate(16);
    /** Where in the stream the next byte is. */
    private long position;
    /** The box being read, once its header is whole; null while a header is being read. */
    private Box box;
    /** The data of the box being read, when it is kept; null when it is skipped. */
    private byte[] data;
    /** Bytes of the box's data read or skipped so far. */
    private long done;

    /** Reads {@code bytes}, handing each kept box that they complete to {@code sink}. */
    void feed(ByteBuffer bytes, BoxSink sink) throws MediaFormatException {
        while (box != null || bytes.hasRemaining()) {
            if (box == null) {
                readHeader(bytes);
                continue;
            }
            long left = box.size() - box.headerLength() - done;
            if (left > 0) {
                if (!bytes.hasRemaining()) {
                    return;
                }
                int n = (int) Math.min(bytes.remaining(), left);
                if (data != null) {
                    bytes.get(data, (int) done, n);
                } else {
                    bytes.position(bytes.position() + n);
                }
                done += n;
                position += n;
                left -= n;
            }
            if (left == 0) {
                Box whole = box;
                byte[] kept = data;
                box = null;
                data = null;
                if (kept != null) {
                    sink.box(whole, ByteBuffer.wrap(kept));
                }
            }
        }
    }

    private void readHeader(ByteBuffer bytes) throws MediaFormatException {
        int want = head.position() < 8 ? 8 : 16;
        while (head.position() < want && bytes.hasRemaining()) {
            head.put(bytes.get());
            position++;
        }
        if (head.position() < want) {
            return;
        }
        long at = position - want;
        long size = head.getInt(0) & 0xFFFF_FFFFL;
        String type = IsoBoxes.fourcc(head, 4);
        if (want == 8 && size == 1) {
            return;
        }
        if (want == 16) {
            size = head.getLong(8);
        }
        head.clear();
        if (type.startsWith("box 0x") || at == 0 && !FIRST.contains(type)) {
            throw MediaFormatException.corrupt("the bytes at " + at + " are not an MP4 box (" + type
                + "): not a fragmented MP4 as ffmpeg -f mp4 -movflags +frag_keyframe+empty_moov writes");
        }
        if (size == 0) {
            throw MediaFormatException.unsupported("the " + type + " at byte " + at + " lasts to the end of the"
                + " stream: a live MP4 gives each box its size (ffmpeg -movflags +frag_keyframe+empty_moov)");
        }
        Box next = new Box(type, at, want, size);
        if (size < want) {
            throw MediaFormatException.corrupt(next.describe() + " claims " + Long.toUnsignedString(size)
                + " bytes, less than its own header");
        }
        if (KEPT.contains(type)) {
            if (size - want > MAX_BOX_BYTES) {
                throw MediaFormatException.unsupported(next.describe() + " is " + size + " bytes, more than the "
                    + MAX_BOX_BYTES + " a live recording holds at once: send shorter fragments (a keyframe every"
                    + " few seconds, ffmpeg -g)");
            }
            data = new byte[(int) (size - want)];
        }
        box = next;
        done = 0;
    }
}
