package io.rondo.benchmarks.load.live;

import io.rondo.content.media.LiveCutter;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.remux.LiveCutters;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A live encoder's output as a publisher sends it in real time: the clip's bytes in slices of
 * {@code sliceNs}, at the clip's mean byte rate (a capped-rate encoder's bytes follow its media
 * time within its buffer), and, for every fragment Rondo cuts from them, the slice whose bytes
 * complete it: found by running the server's own {@link LiveCutter} over the same slices, so a
 * fragment's write latency is counted from the moment its last bytes were sent.
 */
public final class LiveFeed {

    private final byte[] bytes;
    private final long sliceNs;
    private final int sliceBytes;
    private final int[] fragmentDoneBySlice;

    private LiveFeed(byte[] bytes, long sliceNs, int sliceBytes, int[] fragmentDoneBySlice) {
        this.bytes = bytes;
        this.sliceNs = sliceNs;
        this.sliceBytes = sliceBytes;
        this.fragmentDoneBySlice = fragmentDoneBySlice;
    }

    /**
     * The feed of {@code clip}, whose media lasts {@code mediaNs}, in slices of {@code sliceNs},
     * cut into fragments of {@code roundNs} as Rondo cuts a live fragmented MP4.
     *
     * @throws IOException if the clip cannot be read or is not a live fragmented MP4
     */
    public static LiveFeed of(Path clip, long mediaNs, long sliceNs, long roundNs) throws IOException {
        byte[] bytes = Files.readAllBytes(clip);
        if (bytes.length == 0 || mediaNs <= 0 || sliceNs <= 0) {
            throw new IOException(clip + ": an empty clip, or no media time to send it over");
        }
        int sliceBytes = (int) Math.max(1, Math.round((double) bytes.length * sliceNs / mediaNs));
        int slices = (bytes.length + sliceBytes - 1) / sliceBytes;
        LiveCutter cutter = LiveCutters.of("mp4", roundNs);
        int[] done = new int[16];
        int fragments = 0;
        try {
            for (int i = 0; i <= slices; i++) {
                int n = i < slices ? cutter.feed(ByteBuffer.wrap(bytes, i * sliceBytes,
                    Math.min(sliceBytes, bytes.length - i * sliceBytes))).size() : cutter.finish().size();
                for (int k = 0; k < n; k++) {
                    if (fragments == done.length) {
                        done = Arrays.copyOf(done, fragments * 2);
                    }
                    done[fragments++] = i;
                }
            }
        } catch (MediaFormatException e) {
            throw new IOException(clip + " is not a live fragmented MP4: " + e.getMessage(), e);
        }
        return new LiveFeed(bytes, sliceNs, sliceBytes, Arrays.copyOf(done, fragments));
    }

    /** The slices: the last may be shorter. */
    public int slices() {
        return (bytes.length + sliceBytes - 1) / sliceBytes;
    }

    /** How long after the first slice the {@code index}-th is sent. */
    public long sliceAtNs(int index) {
        return index * sliceNs;
    }

    /** The {@code index}-th slice's bytes, from 0. */
    public ByteBuffer slice(int index) {
        int from = index * sliceBytes;
        return ByteBuffer.wrap(bytes, from, Math.min(sliceBytes, bytes.length - from));
    }

    /** Fragments the whole clip makes. */
    public int fragments() {
        return fragmentDoneBySlice.length;
    }

    /**
     * The slice whose bytes complete the {@code fragment}-th fragment; {@link #slices()} for a
     * fragment only the end of the recording completes.
     */
    public int doneBySlice(int fragment) {
        return fragmentDoneBySlice[fragment];
    }

    /** The clip's bytes a second. */
    public double bytesPerSecond() {
        return (double) sliceBytes * 1e9 / sliceNs;
    }

    /** The clip's size. */
    public long bytes() {
        return bytes.length;
    }
}
