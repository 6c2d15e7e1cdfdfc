package io.rondo.content.media.matroska;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.Listings;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.matroska.MatroskaDemuxer.Track;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Walks the blocks of WebM and Matroska files to compare a remuxer's output with its source without ffmpeg. */
final class MatroskaWalk {

    private MatroskaWalk() {
    }

    /**
     * The blocks of every audio and video track, by track number, in file order: each block's
     * absolute time, keyframe flag, and the MD5 of its element's bytes with the 2 bytes of its
     * relative timecode zeroed, which is all a remux may change in a block.
     */
    private static Map<Long, List<String>> blocks(Path file) throws IOException {
        Map<Long, List<String>> byTrack = new TreeMap<>();
        try (MediaFile in = MediaFile.open(file)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            BlockCursor block = demuxer.blocks();
            while (block.next()) {
                Track t = demuxer.track(block.track());
                if (t == null || !t.isVideo() && !t.isAudio()) {
                    continue;
                }
                ByteBuffer bytes = in.read(block.elementOffset(), (int) (block.elementEnd() - block.elementOffset()));
                bytes.putShort((int) (block.timecodeOffset() - block.elementOffset()), (short) 0);
                byTrack.computeIfAbsent(block.track(), n -> new ArrayList<>()).add(demuxer.ns(block.timecode(), "")
                    + " ns " + (block.keyframe() ? "key " : "") + md5(bytes));
            }
        }
        return byTrack;
    }

    /** Asserts that {@code stored} holds the audio and video blocks of {@code source}, naming any that differs. */
    static void assertSameBlocks(Path source, Path stored) throws IOException {
        Listings.assertSame(blocks(source), blocks(stored), "block");
    }

    /** How many Clusters the file has. */
    static int clusters(Path file) throws IOException {
        int clusters = 0;
        long last = -1;
        try (MediaFile in = MediaFile.open(file)) {
            BlockCursor block = MatroskaDemuxer.open(in).orElseThrow().blocks();
            while (block.next()) {
                if (block.clusterOffset() != last) {
                    clusters++;
                    last = block.clusterOffset();
                }
            }
        }
        return clusters;
    }

    /**
     * Asserts that the stored copy {@code file} is WebM with one Cluster per fragment of {@code
     * index}, exactly where the fragment is, whose Timecode is the round's start, holding blocks
     * that play in its round or in the next before the keyframe that opens it, give or take {@code
     * slackNs} for blocks muxed late, in time order (as
     * Chromium's MSE requires of a Cluster).
     */
    static void assertOneClusterPerRound(Path file, MediaIndex index, long roundNs, long slackNs) throws IOException {
        try (MediaFile in = MediaFile.open(file)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            assertEquals("webm", demuxer.docType());
            List<Fragment> fragments = index.fragments();
            for (int i = 0; i < fragments.size(); i++) {
                Ebml.Header cluster = Ebml.header(in, fragments.get(i).offset());
                assertEquals(Ebml.CLUSTER, cluster.id(), "fragment " + i + " is a Cluster");
                assertEquals(fragments.get(i).range().end(), cluster.end(), "fragment " + i + " is one Cluster");
            }
            BlockCursor block = demuxer.blocks();
            int i = 0;
            long previous = Long.MIN_VALUE;
            while (block.next()) {
                while (block.elementOffset() >= fragments.get(i).range().end()) {
                    i++;
                    previous = Long.MIN_VALUE;
                }
                assertTrue(block.timecode() >= previous, block.describe() + " goes back in time in its Cluster");
                previous = block.timecode();
                long startNs = i * roundNs;
                assertEquals(fragments.get(i).offset(), block.clusterOffset());
                assertEquals(startNs, block.clusterTimecode() * demuxer.timecodeScale(), "Timecode of " + i);
                long ns = demuxer.ns(block.timecode(), "");
                Fragment next = i + 1 < fragments.size() ? fragments.get(i + 1) : null;
                long endNs = next != null && next.keyframeFirst() ? Math.max(next.keyframeNs(), next.startNs())
                    : startNs + roundNs;
                assertTrue(ns >= startNs - slackNs && ns < endNs, block.describe() + " at " + ns
                    + " ns plays in round " + i + ", or in the next before its keyframe");
            }
        }
    }

    /** What {@link WebmRemuxer#prepare} makes of a file it can stream. */
    static StoredMedia continuous(Path file, long roundNs) throws IOException {
        return assertInstanceOf(Preparation.Continuous.class, WebmRemuxer.prepare(file, roundNs)).media();
    }

    static String md5(ByteBuffer bytes) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(bytes.duplicate());
            return HexFormat.of().formatHex(md5.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
