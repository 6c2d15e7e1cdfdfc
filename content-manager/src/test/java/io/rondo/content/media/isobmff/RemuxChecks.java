package io.rondo.content.media.isobmff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.Ticks;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

/** Stores media as ingest does, and checks the stored copy against its source without ffmpeg. */
public final class RemuxChecks {

    private RemuxChecks() {
    }

    /** Remuxes {@code source} with rounds of {@code roundNs} into {@code out}, as ingest writes it. */
    static MediaIndex store(Path source, long roundNs, Path out) throws IOException {
        Preparation preparation = Mp4Remuxer.prepare(source, roundNs);
        StoredMedia media = assertInstanceOf(Preparation.Continuous.class, preparation,
            () -> "a continuous object: " + preparation).media();
        try (media; FileChannel channel = FileChannel.open(out, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            media.writeInit(channel);
            for (int i = 0; i < media.index().fragments().size(); i++) {
                media.writeFragment(i, channel);
                Fragment f = media.index().fragments().get(i);
                assertEquals(f.offset() + f.length(), channel.size(), "fragment " + i + " has its planned length");
            }
            assertEquals(media.size(), channel.size(), "the stored size the index gives");
        }
        return media.index();
    }

    /** The tracks of the MP4 {@code file}, as {@link Mp4Demuxer} reads them. */
    public static List<SampleTrack> tracks(Path file) throws IOException {
        return demux(file).tracks();
    }

    /** The codecs string of a track's sample entry, as {@link SampleEntries} describes it. */
    public static String codecs(TrackHeader header) throws MediaFormatException {
        return SampleEntries.describe(header).codecs();
    }

    static Mp4Demuxer.Source demux(Path file) throws IOException {
        try (MediaFile in = MediaFile.open(file)) {
            return Mp4Demuxer.read(in);
        }
    }

    /**
     * The stored copy holds the source's audio and video tracks, each with the same sample entry
     * and the same samples: the same bytes, sync flags, durations, and decode and presentation
     * times on the presentation timeline (whatever edit list each file expresses them with).
     */
    static void assertSamplesIdentical(Path source, Path stored) throws IOException {
        List<SampleTrack> expected = demux(source).tracks();
        List<SampleTrack> actual = demux(stored).tracks();
        byte[] sourceBytes = Files.readAllBytes(source);
        byte[] storedBytes = Files.readAllBytes(stored);
        assertEquals(expected.size(), actual.size(), "the source's audio and video tracks");
        for (int t = 0; t < expected.size(); t++) {
            SampleTrack x = expected.get(t);
            SampleTrack y = actual.get(t);
            TrackHeader hx = x.header();
            TrackHeader hy = y.header();
            String track = "track " + hx.trackId();
            assertEquals(hx.trackId(), hy.trackId());
            assertEquals(hx.handler(), hy.handler(), track);
            assertEquals(hx.timescale(), hy.timescale(), track);
            assertArrayEquals(hx.sampleEntry(), hy.sampleEntry(), track + ": the sample entry, copied");
            assertEquals(hx.language(), hy.language(), track);
            assertArrayEquals(hx.matrix(), hy.matrix(), track);
            assertEquals(hx.width(), hy.width(), track);
            assertEquals(hx.height(), hy.height(), track);
            assertEquals(x.count(), y.count(), track + ": every sample");
            for (int i = 0; i < x.count(); i++) {
                String sample = track + " sample " + i;
                assertEquals(x.size(i), y.size(i), sample);
                assertTrue(Arrays.equals(sourceBytes, (int) x.offset(i), (int) x.offset(i) + x.size(i),
                    storedBytes, (int) y.offset(i), (int) y.offset(i) + y.size(i)), sample + ": its bytes");
                assertEquals(x.sync(i), y.sync(i), sample + ": sync");
                assertEquals(x.duration(i), y.duration(i), sample + ": duration");
                assertEquals(x.decodeTime(i) - hx.editShift(), y.decodeTime(i) - hy.editShift(),
                    sample + ": decode time");
                assertEquals(x.compositionOffset(i), y.compositionOffset(i), sample + ": composition offset");
            }
        }
    }

    /**
     * Each fragment is one moof, its mfhd numbering it from 1, then one mdat that ends the fragment;
     * every traf finds its data from the moof (default-base-is-moof) and starts with a tfdt.
     */
    public static void assertOneMoofAndMdatPerFragment(MediaIndex index, Path stored) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(stored));
        for (int k = 0; k < index.fragments().size(); k++) {
            Fragment f = index.fragments().get(k);
            int at = (int) f.offset();
            assertEquals("moof", type(bytes, at), "fragment " + k + " starts with a moof");
            int moofSize = bytes.getInt(at);
            assertEquals("mfhd", type(bytes, at + 8));
            assertEquals(k + 1, bytes.getInt(at + 20), "the moof's sequence number");
            for (int q = at + 24; q < at + moofSize; q += bytes.getInt(q)) {
                assertEquals("traf", type(bytes, q));
                assertEquals("tfhd", type(bytes, q + 8));
                assertEquals(0x02_0000, bytes.getInt(q + 16) & 0x02_0000, "default-base-is-moof");
                assertEquals("tfdt", type(bytes, q + 8 + bytes.getInt(q + 8)));
            }
            int mdat = at + moofSize;
            assertEquals("mdat", type(bytes, mdat), "then an mdat");
            assertEquals(f.offset() + f.length(), mdat + (long) bytes.getInt(mdat), "which ends the fragment");
        }
    }

    /**
     * Each fragment but the last holds one round of every track, give or take one sample, between
     * where the track starts (before 0 for priming an edit list skips, later for a track an edit
     * delays) and where it ends.
     * For video, give or take also the frames that B-frame reordering carries across a round's
     * boundary: a frame decoded early travels with the frames presented before it, so a fragment may
     * be longer or shorter by the spread of the track's composition offsets.
     */
    static void assertOneRoundEach(MediaIndex index, Path stored, long roundNs) throws IOException {
        List<Fragment> fragments = index.fragments();
        for (SampleTrack s : demux(stored).tracks()) {
            long timescale = s.header().timescale();
            long frameNs = 0;
            long startNs = Long.MAX_VALUE;
            long endNs = Long.MIN_VALUE;
            int minOffset = Integer.MAX_VALUE;
            int maxOffset = Integer.MIN_VALUE;
            long[] sumNs = new long[fragments.size()];
            int k = 0;
            for (int i = 0; i < s.count(); i++) {
                long durationNs = Ticks.toNs(s.duration(i), timescale, "test");
                frameNs = Math.max(frameNs, durationNs);
                long presentationNs = Ticks.toNs(s.decodeTime(i) + s.compositionOffset(i) - s.header().editShift(),
                    timescale, "test");
                startNs = Math.min(startNs, presentationNs);
                endNs = Math.max(endNs, presentationNs + durationNs);
                minOffset = Math.min(minOffset, s.compositionOffset(i));
                maxOffset = Math.max(maxOffset, s.compositionOffset(i));
                while (s.offset(i) >= fragments.get(k).offset() + fragments.get(k).length()) {
                    k++;
                }
                sumNs[k] += durationNs;
            }
            long slack = frameNs + (s.video() ? Ticks.toNs((long) maxOffset - minOffset, timescale, "test") : 0);
            for (int f = 0; f < fragments.size() - 1; f++) {
                long from = Math.max(f == 0 ? Math.min(0, startNs) : f * roundNs, startNs);
                long expected = Math.max(0, Math.min((f + 1) * roundNs, endNs) - from);
                assertTrue(Math.abs(sumNs[f] - expected) <= slack, "fragment " + f + " holds " + sumNs[f]
                    + " ns of track " + s.header().trackId() + ", not " + expected + " ns give or take " + slack);
            }
        }
    }

    private static String type(ByteBuffer bytes, int at) {
        byte[] b = new byte[4];
        bytes.get(at + 4, b);
        return new String(b, StandardCharsets.US_ASCII);
    }
}
