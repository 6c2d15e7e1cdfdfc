package io.rondo.content.media.isobmff;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Reads a round's samples from the source into its fragment with a few large positioned reads:
 * samples next to each other in the source are one read, and samples near each other (an
 * interleaved file) are read together through one scratch buffer of {@value #SCRATCH_BYTES} bytes.
 */
final class SampleReads {

    /** Samples this far apart in the source or nearer are read with one read (and the gap read too). */
    static final int READ_GAP_BYTES = 64 << 10;
    /** The most one read covering several samples spans; a larger sample is read on its own. */
    static final int SCRATCH_BYTES = 4 << 20;

    private final FileChannel source;
    private final PlannedTrack[] tracks;
    private ByteBuffer scratch;
    private long[] segmentSource = new long[64];
    private int[] segmentLength = new int[64];
    private int[] segmentTarget = new int[64];
    private long[] order = new long[64];

    SampleReads(FileChannel source, PlannedTrack[] tracks) {
        this.source = source;
        this.tracks = tracks;
    }

    /**
     * Copies round k's samples into {@code frame} from {@code at}, track by track in decode order.
     * Samples next to each other in both the source and the fragment are one segment; segments near
     * each other in the source (an interleaved file) are read together into the scratch buffer and
     * copied out, a segment on its own is read straight into place.
     */
    void fill(int k, ByteBuffer frame, int at) throws IOException {
        int segments = 0;
        int target = at;
        for (PlannedTrack p : tracks) {
            SampleTrack s = p.samples;
            for (int i = p.roundStart(k); i < p.roundStart(k + 1); i++) {
                long offset = s.offset(i);
                int size = s.size(i);
                if (segments > 0 && segmentSource[segments - 1] + segmentLength[segments - 1] == offset) {
                    segmentLength[segments - 1] += size;
                } else {
                    if (segments == segmentSource.length) {
                        growSegments();
                    }
                    segmentSource[segments] = offset;
                    segmentLength[segments] = size;
                    segmentTarget[segments] = target;
                    segments++;
                }
                target += size;
            }
        }
        sortBySource(segments);
        int j = 0;
        while (j < segments) {
            int first = segment(j);
            long start = segmentSource[first];
            long end = start + segmentLength[first];
            int last = j;
            while (last + 1 < segments) {
                int next = segment(last + 1);
                long nextEnd = segmentSource[next] + segmentLength[next];
                if (segmentSource[next] > end + READ_GAP_BYTES || Math.max(end, nextEnd) - start > SCRATCH_BYTES) {
                    break;
                }
                end = Math.max(end, nextEnd);
                last++;
            }
            if (last == j) {
                readFully(frame.slice(segmentTarget[first], segmentLength[first]), start);
            } else {
                if (scratch == null) {
                    scratch = ByteBuffer.allocateDirect(SCRATCH_BYTES);
                }
                scratch.clear().limit((int) (end - start));
                readFully(scratch, start);
                for (int m = j; m <= last; m++) {
                    int seg = segment(m);
                    frame.put(segmentTarget[seg], scratch, (int) (segmentSource[seg] - start), segmentLength[seg]);
                }
            }
            j = last + 1;
        }
    }

    /** The segment at sorted position {@code j}. */
    private int segment(int j) {
        return (int) (order[j] & 0xF_FFFF);
    }

    /** Orders the segments by source offset: keys of offset (43 bits) and segment (20 bits), sorted. */
    private void sortBySource(int segments) {
        if (order.length < segments) {
            order = new long[segmentSource.length];
        }
        boolean packable = segments <= 0xF_FFFF;
        for (int j = 0; j < segments; j++) {
            packable &= segmentSource[j] < 1L << 43;
            order[j] = segmentSource[j] << 20 | j;
        }
        if (packable) {
            Arrays.sort(order, 0, segments);
        } else {
            for (int j = 0; j < segments; j++) {
                order[j] = j;
            }
        }
    }

    private void growSegments() {
        int capacity = segmentSource.length * 2;
        segmentSource = Arrays.copyOf(segmentSource, capacity);
        segmentLength = Arrays.copyOf(segmentLength, capacity);
        segmentTarget = Arrays.copyOf(segmentTarget, capacity);
    }

    private void readFully(ByteBuffer dst, long position) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int r = source.read(dst, at);
            if (r < 0) {
                throw new EOFException("the source is " + source.size() + " bytes, too short for the samples planned at"
                    + " byte " + position + ": it changed after it was planned");
            }
            at += r;
        }
    }
}
