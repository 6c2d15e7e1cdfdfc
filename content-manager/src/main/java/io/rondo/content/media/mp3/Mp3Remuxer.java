package io.rondo.content.media.mp3;

import io.rondo.content.media.FfmpegCommands;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.Ticks;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * MP3 (MPEG-1, MPEG-2 and MPEG-2.5 Audio Layer III) as a continuous object: its frames, untouched,
 * grouped into one run per round T (papers/001 Section 1.1) by the samples they hold (1152 a frame
 * for MPEG-1, 576 for MPEG-2 and 2.5), so that fragment k holds the frames that start in
 * [kT, (k+1)T).
 *
 * <p>The stored copy is the audio frames alone; its init segment is empty, since MediaSource's
 * {@code audio/mpeg} byte stream has none. Left out, each for a reason:
 * <ul>
 *   <li>ID3v2 tags at the start: Chromium's MSE parser (MPEGAudioStreamParserBase) would skip one,
 *       but as an init segment it would travel with every OPEN and SEEK, cover art and all;
 *   <li>a first frame that holds a Xing, Info or VBRI header: it carries no audio (Chromium skips a
 *       Xing or Info frame, but only at the start of the stream, not after a seek). The duration is
 *       counted from the audio frames themselves, so its frame count is not needed;
 *   <li>an ID3v1 tag ({@code TAG}, and {@code TAG+} before it) and an APEv2 tag at the end.
 * </ul>
 * The ingest note names the tags left out, with their values, and the pictures ({@link Id3Tags}).
 * Anything else that is not a frame (lost sync, free-format frames whose length the header does not
 * give, a last frame cut short) is refused with where it is.
 *
 * <p>Planning reads every frame header once; {@link #writeFragment} reads a fragment's frames in one
 * read into a buffer it reuses and checks their headers again before writing them.
 */
public final class Mp3Remuxer implements StoredMedia {

    /** How many bytes {@link #sniff} wants to see a second frame header after the first (the longest frame is 1441). */
    public static final int SNIFF_BYTES = 4096;

    private static final int ID3V2_HEADER_BYTES = 10;
    private static final int ID3V1_BYTES = 128;
    private static final int ID3V1_EXTENDED_BYTES = 227;
    private static final int APE_FOOTER_BYTES = 32;
    private static final int XING_PEEK_BYTES = 4 + 2 + 32 + 4;
    private static final int[] MPEG1_KBPS = {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320};
    private static final int[] MPEG2_KBPS = {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160};
    private static final int[] MPEG1_RATES = {44100, 48000, 32000};
    private static final int MPEG1 = 3;
    private static final int MPEG2_5 = 0;
    private static final int LAYER_III = 1;

    private final MediaFile in;
    private final long audioStart;
    private final MediaIndex index;
    private final int[] frames;
    private ByteBuffer buffer = ByteBuffer.allocate(0);

    private Mp3Remuxer(MediaFile in, long audioStart, MediaIndex index, int[] frames) {
        this.in = in;
        this.audioStart = audioStart;
        this.index = index;
        this.frames = frames;
    }

    /**
     * Whether {@code head}, the first bytes of a file (give {@link #SNIFF_BYTES}), look like MP3: an
     * ID3v2 header, or an MPEG audio Layer III frame header followed, at the frame's length, by
     * another of the same version and sample rate.
     */
    public static boolean sniff(ByteBuffer head) {
        int p = head.position();
        int n = head.remaining();
        if (n >= ID3V2_HEADER_BYTES && isId3v2(head, p)) {
            return true;
        }
        if (n < 4) {
            return false;
        }
        int first = head.getInt(p);
        if (!isFrameHeader(first) || n < frameBytes(first) + 4) {
            return false;
        }
        int second = head.getInt(p + frameBytes(first));
        return isFrameHeader(second) && (second & 0xFFFE0C00) == (first & 0xFFFE0C00);
    }

    /**
     * What ingest makes of an MP3 file: its frames, one run per round; a discrete object with a note
     * if an ID3v2 tag is followed by something else than MP3 (an ID3-tagged FLAC or AAC file).
     *
     * @param roundNs the round length T, at least one frame (72 ms at most)
     * @throws MediaFormatException if the file is truncated, loses frame sync, or is free-format
     */
    public static Preparation prepare(Path file, long roundNs) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        MediaFile in = MediaFile.open(file);
        try {
            long start = skipId3v2(in);
            int header = in.size() - start >= 4 ? in.peek(start, 4).getInt(0) : 0;
            if (!isFrameHeader(header)) {
                if (isFreeFormat(header)) {
                    throw freeFormat(start);
                }
                String found = start > 0 ? "after its ID3v2 tag (bytes 0 to " + (start - 1) + ") comes no MP3 frame"
                    : "byte 0 starts no MP3 frame";
                String note = found + " but " + hex(in, start) + "; Rondo streams MPEG audio Layer III; to stream it: "
                    + FfmpegCommands.convert(file, "-c:a libopus", "webm");
                in.close();
                return new Preparation.Discrete(note);
            }
            return new Preparation.Continuous(plan(in, start, roundNs), Id3Tags.note(file));
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    private static Mp3Remuxer plan(MediaFile in, long tagEnd, long roundNs) throws IOException {
        long end = audioEnd(in, tagEnd);
        long pos = tagEnd;
        if (isInfoFrame(in, pos)) {
            pos += frameBytes(in.peek(pos, 4).getInt(0));
        }
        long audioStart = pos;
        List<Long> starts = new ArrayList<>();
        int[] frames = new int[64];
        long round = -1;
        long baseNs = 0;
        long samples = 0;
        int rate = 0;
        long previous = -1;
        while (pos < end) {
            int header = frameHeaderAt(in, pos, end, previous);
            int length = frameBytes(header);
            if (pos + length > end) {
                if (end == in.size()) {
                    throw MediaFormatException.truncated("MP3 frame", pos, length, end);
                }
                throw MediaFormatException.corrupt("the MP3 frame at byte " + pos + " claims " + length
                    + " bytes, past the tag at the end of the file at byte " + end);
            }
            if (sampleRate(header) != rate) {
                baseNs += rate == 0 ? 0 : samples * 1_000_000_000L / rate;
                samples = 0;
                rate = sampleRate(header);
            }
            long startNs = baseNs + samples * 1_000_000_000L / rate;
            long k = startNs / roundNs;
            if (k > round) {
                if (k > round + 1) {
                    throw MediaFormatException.unsupported("rounds of " + Ticks.seconds(roundNs) + " are shorter"
                        + " than the MP3 frame at byte " + pos + ": round " + (round + 1) + " would hold no frame");
                }
                starts.add(pos);
                round = k;
                if (round == frames.length) {
                    frames = Arrays.copyOf(frames, frames.length * 2);
                }
            }
            frames[(int) round]++;
            samples += samplesPerFrame(header);
            previous = pos;
            pos += length;
        }
        if (starts.isEmpty()) {
            throw MediaFormatException.corrupt("the file holds no MP3 frame after byte " + audioStart);
        }
        long durationNs = baseNs + samples * 1_000_000_000L / rate;
        List<Fragment> fragments = new ArrayList<>(starts.size());
        for (int i = 0; i < starts.size(); i++) {
            boolean last = i == starts.size() - 1;
            long from = starts.get(i);
            long to = last ? pos : starts.get(i + 1);
            fragments.add(Fragment.unplaced(i * roundNs, last ? durationNs - i * roundNs : roundNs, from - audioStart,
                to - from));
        }
        MediaIndex index = new MediaIndex("mp3", "audio/mpeg", "", durationNs, new ByteRange(0, 0), fragments);
        return new Mp3Remuxer(in, audioStart, index, Arrays.copyOf(frames, starts.size()));
    }

    @Override
    public MediaIndex index() {
        return index;
    }

    /** Writes nothing: MP3's byte stream has no init segment. */
    @Override
    public void writeInit(WritableByteChannel out) {
        // audio/mpeg has no initialization segment: its frames describe themselves.
    }

    @Override
    public void writeFragment(int i, WritableByteChannel out) throws IOException {
        Fragment f = index.fragments().get(i);
        int length = (int) f.length();
        if (buffer.capacity() < length) {
            buffer = ByteBuffer.allocate(length);
        }
        buffer.clear().limit(length);
        in.readFully(audioStart + f.offset(), buffer);
        int count = 0;
        int at = 0;
        while (at + 4 <= length && isFrameHeader(buffer.getInt(at))) {
            at += frameBytes(buffer.getInt(at));
            count++;
        }
        if (at != length || count != frames[i]) {
            throw new IOException("the source no longer matches what was planned for fragment " + i
                + " (did the file change?): bytes " + (audioStart + f.offset()) + " to "
                + (audioStart + f.offset() + length) + " should hold " + frames[i] + " whole MP3 frames");
        }
        buffer.flip();
        StoredMedia.writeFully(out, buffer);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** Whether the 32-bit {@code header} starts an MPEG audio Layer III frame whose length it gives. */
    public static boolean isFrameHeader(int header) {
        return syncedLayerIII(header) && bitrateIndex(header) != 0 && bitrateIndex(header) != 15;
    }

    /** The bytes of the frame that {@code header} starts (a valid {@link #isFrameHeader}). */
    public static int frameBytes(int header) {
        boolean mpeg1 = version(header) == MPEG1;
        int kbps = (mpeg1 ? MPEG1_KBPS : MPEG2_KBPS)[bitrateIndex(header)];
        int padding = (header >>> 9) & 1;
        return (mpeg1 ? 144 : 72) * kbps * 1000 / sampleRate(header) + padding;
    }

    /** 1152 for MPEG-1, 576 for MPEG-2 and 2.5. */
    public static int samplesPerFrame(int header) {
        return version(header) == MPEG1 ? 1152 : 576;
    }

    /** The sampling rate of a frame with this header, in Hz. */
    public static int sampleRate(int header) {
        int rate = MPEG1_RATES[(header >>> 10) & 3];
        int version = version(header);
        return version == MPEG1 ? rate : version == MPEG2_5 ? rate / 4 : rate / 2;
    }

    private static boolean syncedLayerIII(int header) {
        return (header >>> 21) == 0x7FF && version(header) != 1 && ((header >>> 17) & 3) == LAYER_III
            && ((header >>> 10) & 3) != 3;
    }

    private static boolean isFreeFormat(int header) {
        return syncedLayerIII(header) && bitrateIndex(header) == 0;
    }

    private static int version(int header) {
        return (header >>> 19) & 3;
    }

    private static int bitrateIndex(int header) {
        return (header >>> 12) & 15;
    }

    private static MediaFormatException freeFormat(long pos) {
        return MediaFormatException.unsupported("the MP3 frame at byte " + pos + " is free-format (its header gives"
            + " no bit rate, so frame lengths cannot be known); re-encode it with a bit rate, e.g."
            + " ffmpeg -i IN -c:a libmp3lame -q:a 2 OUT.mp3");
    }

    /** The header of the frame at {@code pos}, or why there is none. */
    private static int frameHeaderAt(MediaFile in, long pos, long end, long previous) throws IOException {
        if (end - pos < 4) {
            throw MediaFormatException.truncated("the file ends at byte " + end + ", " + (end - pos)
                + " bytes into the header of an MP3 frame at byte " + pos);
        }
        int header = in.peek(pos, 4).getInt(0);
        if (isFrameHeader(header)) {
            return header;
        }
        if (isFreeFormat(header)) {
            throw freeFormat(pos);
        }
        throw MediaFormatException.corrupt("MP3 frame sync is lost at byte " + pos + (previous < 0 ? ""
            : ", after the frame at byte " + previous) + ": it holds " + hex(in, pos) + " where a frame header"
            + " should be");
    }

    /** Past the ID3v2 tags at the start of the file, and the zero bytes some taggers leave after them. */
    private static long skipId3v2(MediaFile in) throws IOException {
        long pos = 0;
        while (in.size() - pos >= ID3V2_HEADER_BYTES && isId3v2(in.peek(pos, ID3V2_HEADER_BYTES), 0)) {
            ByteBuffer h = in.peek(pos, ID3V2_HEADER_BYTES);
            long size = 0;
            for (int i = 6; i < ID3V2_HEADER_BYTES; i++) {
                size = (size << 7) | (h.get(i) & 0x7F);
            }
            long tag = ID3V2_HEADER_BYTES + size + ((h.get(5) & 0x10) != 0 ? ID3V2_HEADER_BYTES : 0);
            if (pos + tag > in.size()) {
                throw MediaFormatException.truncated("ID3v2 tag", pos, tag, in.size());
            }
            pos += tag;
        }
        while (pos > 0 && pos < in.size() && in.peek(pos, 1).get(0) == 0) {
            pos++;
        }
        return pos;
    }

    private static boolean isId3v2(ByteBuffer b, int p) {
        return b.get(p) == 'I' && b.get(p + 1) == 'D' && b.get(p + 2) == '3' && (b.get(p + 3) & 0xFF) != 0xFF
            && (b.get(p + 4) & 0xFF) != 0xFF && (b.get(p + 6) & 0x80) == 0 && (b.get(p + 7) & 0x80) == 0
            && (b.get(p + 8) & 0x80) == 0 && (b.get(p + 9) & 0x80) == 0;
    }

    /** Whether the frame at {@code pos} holds a Xing, Info or VBRI header rather than audio. */
    private static boolean isInfoFrame(MediaFile in, long pos) throws IOException {
        ByteBuffer frame = in.peek(pos, XING_PEEK_BYTES);
        if (frame.remaining() < XING_PEEK_BYTES) {
            return false;
        }
        int header = frame.getInt(0);
        boolean mono = ((header >>> 6) & 3) == 3;
        int sideInfo = version(header) == MPEG1 ? (mono ? 17 : 32) : (mono ? 9 : 17);
        int crc = ((header >>> 16) & 1) == 0 ? 2 : 0;
        int xing = 4 + crc + sideInfo;
        String tag = ascii(frame, xing, 4);
        return tag.equals("Xing") || tag.equals("Info") || ascii(frame, 4 + 32, 4).equals("VBRI");
    }

    /** Where the frames end: before an ID3v1 tag (and its TAG+ extension) and an APEv2 tag at the end. */
    private static long audioEnd(MediaFile in, long start) throws IOException {
        long end = in.size();
        if (end - ID3V1_BYTES >= start && ascii(in.peek(end - ID3V1_BYTES, 3), 0, 3).equals("TAG")) {
            end -= ID3V1_BYTES;
            if (end - ID3V1_EXTENDED_BYTES >= start
                && ascii(in.peek(end - ID3V1_EXTENDED_BYTES, 4), 0, 4).equals("TAG+")) {
                end -= ID3V1_EXTENDED_BYTES;
            }
        }
        if (end - APE_FOOTER_BYTES >= start) {
            ByteBuffer footer = in.peek(end - APE_FOOTER_BYTES, APE_FOOTER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            if (ascii(footer, 0, 8).equals("APETAGEX")) {
                long size = footer.getInt(12) & 0xFFFF_FFFFL;
                long tagStart = end - size - (footer.getInt(20) < 0 ? APE_FOOTER_BYTES : 0);
                if (tagStart >= start) {
                    end = tagStart;
                }
            }
        }
        return end;
    }

    private static String ascii(ByteBuffer b, int at, int n) {
        if (b.limit() < at + n) {
            return "";
        }
        byte[] bytes = new byte[n];
        b.get(at, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** {@code FF FB 90 64}: the first bytes at {@code pos}, for a message. */
    private static String hex(MediaFile in, long pos) throws IOException {
        ByteBuffer b = in.peek(pos, 4);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < b.remaining(); i++) {
            s.append(i > 0 ? " " : "").append(String.format(Locale.ROOT, "%02X", b.get(i) & 0xFF));
        }
        return s.length() == 0 ? "nothing" : s.toString();
    }
}
