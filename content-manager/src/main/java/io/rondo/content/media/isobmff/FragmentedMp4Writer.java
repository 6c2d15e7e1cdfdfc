package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.Ticks;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Stores {@link SampleTrack}s as a fragmented MP4 with one {@code moof} + {@code mdat} per round T
 * of presentation (papers/001 Section 1.1: a fragment is the data of one round's display), every
 * sample's bytes copied untouched from the source. Planning reads nothing but the sample tables it
 * is given; {@link #writeFragment} reads each round's samples from the source with a few large
 * positioned reads.
 *
 * <p>Which round a sample goes to is {@link PlannedTrack}'s to say; the boxes of the init segment
 * are {@link InitSegment}'s, those of each round's fragment {@link FragmentBoxes}', and the
 * reads of its samples {@link SampleReads}'.
 *
 * <p>The media lasts from 0 to the end of the track that ends last (a track's end is its last
 * presentation, or its edit's end where that is sooner); it has ceil(duration / T) rounds, the last
 * one shorter.
 *
 * <p><b>Keyframes.</b> A fragment's {@code keyframeNs} and {@code keyframeFirst} come from the first
 * video track (a second one, rare in files, is not looked at): the presentation time of its first
 * sync sample in the round, and whether the round's first video sample is one (always, where the
 * round holds one). A round without video samples (audio-only media, or after the video ends)
 * starts at a keyframe.
 *
 * <p><b>Memory.</b> Besides the sample tables (25 bytes a sample, {@link SampleTrack}), planning
 * keeps 4 bytes a track and a round, the init segment, and writing one buffer of the largest
 * fragment and one of {@value SampleReads#SCRATCH_BYTES} bytes for coalesced reads: flat in the size of the
 * file.
 */
public final class FragmentedMp4Writer implements StoredMedia {

    /** A stored file of more rounds than this (115 days of 1 s) comes from a corrupt time. */
    private static final long MAX_ROUNDS = 10_000_000;
    private static final long MAX_FRAGMENT_BYTES = Integer.MAX_VALUE - 64;

    private final FileChannel source;
    private final long sourceSize;
    private final int rounds;
    private final PlannedTrack[] tracks;
    private final byte[] init;
    private final MediaIndex index;
    private final int largestFragment;
    private final FragmentBoxes boxes;
    private final SampleReads reads;
    private ByteBuffer frame;

    private FragmentedMp4Writer(FileChannel source, List<SampleTrack> samples, List<String> sourceBrands,
                                long roundNs) throws IOException {
        this.source = source;
        this.sourceSize = source.size();
        this.tracks = new PlannedTrack[samples.size()];
        long durationNs = 0;
        for (int t = 0; t < tracks.length; t++) {
            tracks[t] = new PlannedTrack(samples.get(t));
            durationNs = Math.max(durationNs, tracks[t].endNs);
        }
        long roundCount = Math.max(1, (durationNs + roundNs - 1) / roundNs);
        if (roundCount > MAX_ROUNDS) {
            throw MediaFormatException.corrupt("the media claims to last " + durationNs / Ticks.NS_PER_SECOND
                + " s, too long to be real");
        }
        if (roundCount > sourceSize) {
            // each round costs its own fragment headers: a few bytes of source must not become gigabytes stored
            throw MediaFormatException.corrupt("the media claims to last " + durationNs / Ticks.NS_PER_SECOND
                + " s, more rounds than its " + sourceSize + " bytes could fill");
        }
        rounds = (int) roundCount;
        for (PlannedTrack t : tracks) {
            t.cut(rounds, roundNs);
        }
        init = InitSegment.build(tracks, sourceBrands, durationNs);
        boxes = new FragmentBoxes(tracks);
        reads = new SampleReads(source, tracks);

        List<Fragment> fragments = new ArrayList<>(rounds);
        PlannedTrack video = null;
        for (PlannedTrack t : tracks) {
            if (video == null && t.samples.video()) {
                video = t;
            }
        }
        long offset = init.length;
        long largest = 0;
        for (int k = 0; k < rounds; k++) {
            long length = boxes.build(k);
            largest = Math.max(largest, length);
            long startNs = k * roundNs;
            long fragmentNs = k == rounds - 1 ? durationNs - startNs : roundNs;
            long keyframeNs = startNs;
            boolean keyframeFirst = true;
            if (video != null && video.roundStart(k) < video.roundStart(k + 1)) {
                keyframeNs = Fragment.NO_KEYFRAME;
                keyframeFirst = video.samples.sync(video.roundStart(k));
                for (int i = video.roundStart(k); i < video.roundStart(k + 1); i++) {
                    if (video.samples.sync(i)) {
                        keyframeNs = Math.max(0, video.presentationNs(i));
                        break;
                    }
                }
            }
            fragments.add(Fragment.unplaced(startNs, fragmentNs, offset, length, keyframeNs, keyframeFirst));
            offset += length;
        }
        if (largest > MAX_FRAGMENT_BYTES) {
            throw MediaFormatException.unsupported("a round of the media holds " + largest + " bytes, more than the "
                + MAX_FRAGMENT_BYTES + " Rondo stores as one fragment");
        }
        largestFragment = (int) largest;

        boolean hasVideo = video != null;
        StringJoiner codecs = new StringJoiner(", ");
        for (PlannedTrack t : tracks) {
            codecs.add(SampleEntries.describe(t.header).codecs());
        }
        index = new MediaIndex("mp4", hasVideo ? "video/mp4" : "audio/mp4", codecs.toString(), durationNs,
            new ByteRange(0, init.length), fragments);
    }

    /**
     * Plans the stored copy of {@code source}'s samples: one fragment per round of {@code roundNs}.
     * The source stays open, to be read by {@link #writeFragment}, until {@link #close}.
     *
     * @param tracks       the tracks to store, in order, each with samples (their sample entries are checked
     *                     with {@link Mp4Remuxer#unstreamable} first)
     * @param sourceBrands the source's ftyp brands, kept in the stored ftyp where they still hold
     */
    public static FragmentedMp4Writer plan(Path source, List<SampleTrack> tracks, List<String> sourceBrands,
                                           long roundNs) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        if (tracks.isEmpty() || tracks.stream().anyMatch(t -> t.count() == 0)) {
            throw new IllegalArgumentException("a stored copy needs tracks, each with samples, was " + tracks.size()
                + " tracks");
        }
        return plan(FileChannel.open(source, StandardOpenOption.READ), tracks, sourceBrands, roundNs);
    }

    /**
     * {@link #plan(Path, List, List, long)} of samples in {@code source}, an open file (a remuxer's
     * file of samples it rewrote), which this writer closes: at {@link #close}, or now if planning fails.
     */
    public static FragmentedMp4Writer plan(FileChannel source, List<SampleTrack> tracks, List<String> sourceBrands,
                                    long roundNs) throws IOException {
        try {
            return new FragmentedMp4Writer(source, tracks, sourceBrands, roundNs);
        } catch (IOException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    @Override
    public MediaIndex index() {
        return index;
    }

    @Override
    public void writeInit(WritableByteChannel out) throws IOException {
        if (source.size() != sourceSize) {
            throw new IOException("the source was " + sourceSize + " bytes when it was planned and is "
                + source.size() + " now: it changed meanwhile");
        }
        StoredMedia.writeFully(out, ByteBuffer.wrap(init));
    }

    @Override
    public void writeFragment(int i, WritableByteChannel out) throws IOException {
        if (i < 0 || i >= rounds) {
            throw new IndexOutOfBoundsException("fragment " + i + " of " + rounds);
        }
        long length = boxes.build(i);
        if (frame == null) {
            frame = ByteBuffer.allocateDirect(largestFragment);
        }
        frame.clear();
        boxes.put(frame);
        reads.fill(i, frame, frame.position());
        frame.position(0).limit((int) length);
        StoredMedia.writeFully(out, frame);
    }

    @Override
    public void close() throws IOException {
        source.close();
    }

}
