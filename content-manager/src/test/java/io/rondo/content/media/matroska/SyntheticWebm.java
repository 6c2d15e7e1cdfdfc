package io.rondo.content.media.matroska;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A second WebM muxer, for tests only: writes structurally valid EBML with fake VP8 frames in
 * SimpleBlocks, so that tests know every Cluster's offset and time exactly. Known or unknown sizes,
 * with or without Duration, Cues and Tags at the end, BlockGroups with BlockDuration.
 */
public final class SyntheticWebm {

    static final byte[] UNKNOWN_SIZE = {0x01, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
        (byte) 0xFF, (byte) 0xFF};

    /** One Cluster: its Timecode, how long it plays, and its frames, evenly spread. */
    record ClusterSpec(long timecode, long length, int frames, int frameBytes) { }

    /** What was written, and where its Clusters are. */
    public record Written(byte[] bytes, List<Long> clusterOffsets, long initEnd) { }

    private long timecodeScale = 1_000_000;
    private boolean autoDuration = true;
    private Double duration;
    private boolean durationAsFloat4;
    private boolean unknownSizeSegment;
    private boolean unknownSizeClusters;
    private boolean cuesAndTagsAtEnd;
    private boolean blockGroupsInLastCluster;
    private boolean audioTrack;
    private String docType = "webm";
    private String videoCodec = "V_VP8";
    private byte[] videoCodecPrivate;
    private long defaultDurationNs;
    private final List<ClusterSpec> clusters = new ArrayList<>();

    SyntheticWebm timecodeScale(long scale) {
        this.timecodeScale = scale;
        return this;
    }

    /** Info's Duration in TimecodeScale units, or null for none; by default the end of the last Cluster. */
    SyntheticWebm duration(Double ticks) {
        this.autoDuration = false;
        this.duration = ticks;
        return this;
    }

    SyntheticWebm durationAsFloat4() {
        this.durationAsFloat4 = true;
        return this;
    }

    /** Segment and Clusters of unknown size, as live muxers and MediaRecorder write them. */
    public SyntheticWebm unknownSizes() {
        this.unknownSizeSegment = true;
        this.unknownSizeClusters = true;
        return this;
    }

    SyntheticWebm cuesAndTagsAtEnd() {
        this.cuesAndTagsAtEnd = true;
        return this;
    }

    SyntheticWebm blockGroupsInLastCluster() {
        this.blockGroupsInLastCluster = true;
        return this;
    }

    SyntheticWebm withAudio() {
        this.audioTrack = true;
        return this;
    }

    SyntheticWebm docType(String type) {
        this.docType = type;
        return this;
    }

    SyntheticWebm video(String codecId, byte[] codecPrivate) {
        this.videoCodec = codecId;
        this.videoCodecPrivate = codecPrivate;
        return this;
    }

    /** The video track's DefaultDuration: what a last block without BlockDuration plays for. */
    SyntheticWebm defaultDurationNs(long ns) {
        this.defaultDurationNs = ns;
        return this;
    }

    SyntheticWebm cluster(long timecode, long length, int frames, int frameBytes) {
        clusters.add(new ClusterSpec(timecode, length, frames, frameBytes));
        return this;
    }

    /** {@code count} Clusters of {@code length} each from {@code start}, {@code frames} frames apiece. */
    public SyntheticWebm clusters(int count, long start, long length, int frames, int frameBytes) {
        for (int i = 0; i < count; i++) {
            cluster(start + i * length, length, frames, frameBytes);
        }
        return this;
    }

    public Written write() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(element(Ebml.EBML, cat(uint(0x4286, 1), uint(0x42F7, 1), uint(0x42F2, 4), uint(0x42F3, 8),
            string(Ebml.DOC_TYPE, docType), uint(0x4287, 4), uint(0x4285, 2))));

        ByteArrayOutputStream segment = new ByteArrayOutputStream();
        segment.writeBytes(element(Ebml.SEEK_HEAD, element(0x4DBB, cat(element(0x53AB, id(Ebml.INFO)),
            uint(0x53AC, 0)))));
        segment.writeBytes(element(Ebml.VOID, new byte[20]));
        segment.writeBytes(info());
        segment.writeBytes(tracks());
        List<Long> relativeOffsets = new ArrayList<>();
        for (int i = 0; i < clusters.size(); i++) {
            relativeOffsets.add((long) segment.size());
            segment.writeBytes(cluster(clusters.get(i), blockGroupsInLastCluster && i == clusters.size() - 1));
        }
        if (cuesAndTagsAtEnd) {
            ByteArrayOutputStream cues = new ByteArrayOutputStream();
            for (int i = 0; i < clusters.size(); i++) {
                cues.writeBytes(element(0xBB, cat(uint(0xB3, clusters.get(i).timecode()),
                    element(0xB7, cat(uint(0xF7, 1), uint(0xF1, relativeOffsets.get(i)))))));
            }
            segment.writeBytes(element(Ebml.CUES, cues.toByteArray()));
            segment.writeBytes(element(Ebml.TAGS, element(0x7373, element(0x67C8, cat(string(0x45A3, "ENCODER"),
                string(0x4487, "SyntheticWebm"))))));
        }

        out.writeBytes(id(Ebml.SEGMENT));
        out.writeBytes(unknownSizeSegment ? UNKNOWN_SIZE : size(segment.size()));
        long segmentData = out.size();
        out.writeBytes(segment.toByteArray());
        List<Long> offsets = new ArrayList<>();
        for (long relative : relativeOffsets) {
            offsets.add(segmentData + relative);
        }
        return new Written(out.toByteArray(), offsets, offsets.isEmpty() ? out.size() : offsets.get(0));
    }

    private byte[] info() {
        byte[] durationElement = new byte[0];
        if (duration != null) {
            ByteBuffer value = durationAsFloat4 ? ByteBuffer.allocate(4).putFloat(duration.floatValue())
                : ByteBuffer.allocate(8).putDouble(duration);
            durationElement = element(Ebml.DURATION, value.array());
        }
        if (autoDuration && !clusters.isEmpty()) {
            ClusterSpec last = clusters.get(clusters.size() - 1);
            durationElement = element(Ebml.DURATION,
                ByteBuffer.allocate(8).putDouble(last.timecode() + last.length()).array());
        }
        return element(Ebml.INFO, cat(uint(Ebml.TIMECODE_SCALE, timecodeScale), string(0x4D80, "SyntheticWebm"),
            string(0x5741, "SyntheticWebm"), durationElement));
    }

    private byte[] tracks() {
        byte[] video = element(Ebml.TRACK_ENTRY, cat(uint(Ebml.TRACK_NUMBER, 1), uint(0x73C5, 1),
            uint(Ebml.TRACK_TYPE, 1), string(Ebml.CODEC_ID, videoCodec),
            videoCodecPrivate == null ? new byte[0] : element(Ebml.CODEC_PRIVATE, videoCodecPrivate),
            defaultDurationNs > 0 ? uint(Ebml.DEFAULT_DURATION, defaultDurationNs) : new byte[0],
            element(0xE0, cat(uint(0xB0, 160), uint(0xBA, 120)))));
        byte[] audio = !audioTrack ? new byte[0] : element(Ebml.TRACK_ENTRY, cat(uint(Ebml.TRACK_NUMBER, 2),
            uint(0x73C5, 2), uint(Ebml.TRACK_TYPE, 2), string(Ebml.CODEC_ID, "A_OPUS"),
            element(Ebml.CODEC_PRIVATE, "OpusHead".getBytes(StandardCharsets.US_ASCII)),
            element(0xE1, cat(uint(0x9F, 1), element(0xB5, ByteBuffer.allocate(8).putDouble(48000).array())))));
        return element(Ebml.TRACKS, cat(video, audio));
    }

    private byte[] cluster(ClusterSpec spec, boolean blockGroups) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(uint(Ebml.TIMECODE, spec.timecode()));
        for (int i = 0; i < spec.frames(); i++) {
            int relative = (int) (i * spec.length() / spec.frames());
            byte[] frame = new byte[spec.frameBytes()];
            for (int j = 0; j < frame.length; j++) {
                frame[j] = (byte) (j * 31 + i);
            }
            if (i == 0 && frame.length >= 6) {
                frame[0] = 0x10;
                frame[3] = (byte) 0x9D;
                frame[4] = 0x01;
                frame[5] = 0x2A;
            }
            byte[] block = cat(new byte[] {(byte) 0x81, (byte) (relative >> 8), (byte) relative,
                (byte) (i == 0 ? 0x80 : 0x00)}, frame);
            if (blockGroups) {
                block[3] = 0;
                long blockDuration = (i + 1) * spec.length() / spec.frames() - relative;
                body.writeBytes(element(Ebml.BLOCK_GROUP, cat(element(Ebml.BLOCK, block),
                    uint(Ebml.BLOCK_DURATION, blockDuration))));
            } else {
                body.writeBytes(element(Ebml.SIMPLE_BLOCK, block));
            }
            if (audioTrack) {
                body.writeBytes(element(Ebml.SIMPLE_BLOCK, new byte[] {(byte) 0x82, (byte) (relative >> 8),
                    (byte) relative, (byte) 0x80, 1, 2, 3, 4, 5, 6, 7, 8}));
            }
        }
        if (unknownSizeClusters) {
            return cat(id(Ebml.CLUSTER), UNKNOWN_SIZE, body.toByteArray());
        }
        return element(Ebml.CLUSTER, body.toByteArray());
    }

    static byte[] element(int id, byte[] data) {
        return cat(id(id), size(data.length), data);
    }

    static byte[] uint(int id, long value) {
        int n = 1;
        while (n < 8 && value >>> (8 * n) != 0) {
            n++;
        }
        byte[] data = new byte[n];
        for (int i = 0; i < n; i++) {
            data[i] = (byte) (value >>> (8 * (n - 1 - i)));
        }
        return element(id, data);
    }

    static byte[] string(int id, String value) {
        return element(id, value.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] id(int id) {
        int n = id > 0xFFFFFF ? 4 : id > 0xFFFF ? 3 : id > 0xFF ? 2 : 1;
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (id >>> (8 * (n - 1 - i)));
        }
        return b;
    }

    /** The shortest VINT for {@code n} (the all-ones value of each length is reserved for unknown). */
    static byte[] size(long n) {
        int length = 1;
        while (n >= (1L << (7 * length)) - 1) {
            length++;
        }
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (n >>> (8 * (length - 1 - i)));
        }
        b[0] |= (byte) (0x80 >> (length - 1));
        return b;
    }

    public static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
