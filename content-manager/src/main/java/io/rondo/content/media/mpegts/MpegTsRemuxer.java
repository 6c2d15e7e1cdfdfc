package io.rondo.content.media.mpegts;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.isobmff.FragmentedMp4Writer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An MPEG transport stream (what recorders, tuners and {@code ffmpeg -f mpegts} write; Blu-ray and
 * AVCHD {@code .m2ts}) remuxed at ingest into the fragmented MP4 that {@link FragmentedMp4Writer}
 * stores: one moof + mdat per round T, each round's video starting at its keyframe where the
 * encoder put one there.
 *
 * <p>Unlike MP4 and Matroska, a transport stream scatters each frame over 188-byte packets and
 * frames it for a byte stream, so its samples cannot be copied from the source as they are. They
 * are rewritten, once, into a file of samples in a scratch folder (at ingest, the disk's
 * {@code rondo/tmp/}; the file is unlinked as it is opened, so that nothing is left of it after
 * the ingest, even after a crash), and the writer copies them from there:
 * <ul>
 *   <li>H.264 (stream type 0x1B) and H.265 (0x24, or 0x06 registered {@code HEVC}): each PES
 *       packet is an access unit in Annex B; its NAL units get a 4-byte length instead of a start
 *       code, access unit delimiters and filler data are dropped, parameter sets stay in band (so a
 *       stream that changes them still plays) and the first ones make the {@code avcC} or
 *       {@code hvcC} of an {@code avc1} or {@code hev1} sample entry. A sync sample is an IDR (or
 *       an I picture with a recovery point SEI) for H.264, an IRAP picture for H.265. Frames before
 *       the first sync sample cannot be decoded and are dropped (a stream without any makes the
 *       file discrete, with a note, rather than lose its video silently). Times count 90 kHz;
 *   <li>AAC in ADTS (0x0F): each ADTS frame loses its header and is a sample of 1024 samples;
 *       the first frame's header makes the AudioSpecificConfig of an {@code mp4a}. MP3 (0x03,
 *       0x04): each frame, header and all, is a sample. Times count the sampling rate, from the
 *       PES packet's PTS and on frame by frame, starting again from a PTS that jumps ahead of them
 *       by more than a frame (a gap in the recording).
 * </ul>
 * Times start at 0: the earliest presentation time of any kept stream is subtracted, after the
 * 33-bit timestamps are unwrapped ({@link MpegTsDemuxer}); a video track whose first frame is
 * decoded before that (B-frames) starts with an edit that presents it at 0.
 *
 * <p>A stream whose codec browsers do not play from MP4 (MPEG-2 video, AC-3, MPEG audio layer II,
 * AAC in LATM, ...) makes the file discrete, with a note naming it and the ffmpeg command that
 * copies what can be copied, as for MP4 and Matroska. Subtitle, teletext and data streams (ID3,
 * SCTE-35) are dropped; so are the programs after the first.
 */
public final class MpegTsRemuxer {

    private MpegTsRemuxer() {
    }

    /**
     * Whether {@code head}, a file's first bytes, is a transport stream: 188-byte (or 192-byte)
     * packets, every one starting with the sync byte 0x47.
     */
    public static boolean sniff(ByteBuffer head) {
        return MpegTsDemuxer.packetBytes(head) > 0;
    }

    /**
     * What ingest makes of the transport stream {@code file}: a fragmented MP4 of one moof + mdat
     * per round, or a discrete object with a note if a stream's codec does not play in browsers.
     *
     * @param roundNs the round length T
     * @param scratch the folder for the file of rewritten samples (a disk's own temporary folder)
     * @throws MediaFormatException if the file is corrupt, or holds no frame that can be played
     */
    public static Preparation prepare(Path file, long roundNs, Path scratch) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(MpegTsDemuxer.M2TS_PACKET_BYTES * 8);
            int read;
            do {
                read = in.read(head, head.position());
            } while (read > 0 && head.hasRemaining());
            head.flip();
            int packetBytes = MpegTsDemuxer.packetBytes(head);
            if (packetBytes == 0) {
                return new Preparation.Discrete(null);
            }
            SampleFile out = SampleFile.open(scratch);
            try {
                StreamCollector collector = new StreamCollector(out);
                long skipped = MpegTsDemuxer.read(in, packetBytes, collector);
                if (collector.program == null || !collector.unplayable.isEmpty() || collector.tracks.isEmpty()) {
                    out.close();
                    return new Preparation.Discrete(collector.note(file));
                }
                collector.finish();
                String keyless = collector.keyless(file);
                if (keyless != null) {
                    out.close();
                    return new Preparation.Discrete(keyless);
                }
                return new Preparation.Continuous(collector.plan(roundNs, skipped));
            } catch (IOException | RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }
}
