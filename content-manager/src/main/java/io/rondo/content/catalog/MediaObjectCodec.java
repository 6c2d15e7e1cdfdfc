package io.rondo.content.catalog;

import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.Placement;
import io.rondo.content.model.StoredFile;
import net.openhft.chronicle.bytes.RandomDataInput;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A media object as the bytes of its catalog entry, schema version {@value #SCHEMA_VERSION}.
 *
 * <p>Hand-written rather than JSON because a continuous object's fragment table is most of its
 * entry: 7200 fragments for a 2-hour film at one per second. Every number is a varint, and each
 * fragment field is stored as its difference from what the previous fragments predict: a fragment
 * starts where the previous one ended, in the media and in its file, lasts as long as the previous
 * one, and lies in the next file of the stripe; its keyframe is two bits beside its file and, where
 * it is not at the fragment's start, its distance from there. A regular table so costs about 8 bytes per fragment
 * (mostly the length), against about 130 as JSON (measured in {@code MediaObjectCodecTest}).
 *
 * <p>Version 2 added the keyframe of each fragment (fragments are one round each, whatever the
 * encoder's keyframe interval); version 1 catalogs are refused with the way out.
 *
 * <p>Layout: the name first (so that opening the catalog reads only that, see
 * {@link #decodeName}), then kind, MIME type, size, ETag, created and modified times, placement,
 * and the media index if there is one. Strings are a varint of their UTF-8 length plus one (0 is
 * null) and the bytes; signed numbers are zigzag varints.
 */
final class MediaObjectCodec {

    /** The version of this layout; the catalog refuses a folder written with another. */
    static final int SCHEMA_VERSION = 2;

    private static final int NULL = 0;

    /**
     * A fragment's keyframe, in the two low bits of its file field: none; its first frame, at its
     * start; a later frame (its time follows); its first frame, after its start (its time follows).
     */
    private static final int NO_KEYFRAME = 0;
    private static final int KEYFRAME_AT_START = 1;
    private static final int KEYFRAME_LATER = 2;
    private static final int KEYFRAME_FIRST_LATER = 3;

    private MediaObjectCodec() {
    }

    /** The entry bytes of {@code object}; its id is the entry's key and is not repeated here. */
    static byte[] encode(MediaObject object) {
        Writer out = new Writer(estimateSize(object));
        out.string(object.name());
        out.unsigned(object.kind() == null ? NULL : object.kind().ordinal() + 1);
        out.string(object.mimeType());
        out.signed(object.size());
        out.string(object.etag());
        out.signed(object.createdMs());
        out.signed(object.modifiedMs() - object.createdMs());
        Placement placement = object.placement();
        if (placement == null) {
            out.unsigned(NULL);
        } else {
            out.unsigned(placement.files().size() + 1L);
            for (StoredFile file : placement.files()) {
                out.string(file.disk());
                out.string(file.path());
                out.signed(file.length());
            }
        }
        MediaIndex media = object.media();
        if (media == null) {
            out.unsigned(NULL);
        } else {
            out.unsigned(1);
            encodeMedia(media, placement == null ? 0 : placement.files().size(), out);
        }
        return out.toByteArray();
    }

    /** The object of id {@code id} whose entry bytes are {@code bytes}. */
    static MediaObject decode(long id, byte[] bytes) {
        Reader in = new Reader(bytes);
        try {
            String name = in.string();
            int kindCode = (int) in.unsigned();
            Kind kind = kindCode == NULL ? null : Kind.values()[kindCode - 1];
            String mimeType = in.string();
            long size = in.signed();
            String etag = in.string();
            long createdMs = in.signed();
            long modifiedMs = createdMs + in.signed();
            Placement placement = null;
            int filesPlusOne = (int) in.unsigned();
            if (filesPlusOne != NULL) {
                List<StoredFile> files = new ArrayList<>(filesPlusOne - 1);
                for (int i = 0; i < filesPlusOne - 1; i++) {
                    files.add(new StoredFile(in.string(), in.string(), in.signed()));
                }
                placement = new Placement(files);
            }
            MediaIndex media = in.unsigned() == NULL ? null
                : decodeMedia(in, placement == null ? 0 : placement.files().size());
            if (in.position != bytes.length) {
                throw new IllegalStateException((bytes.length - in.position) + " bytes left over");
            }
            return new MediaObject(id, name, kind, mimeType, size, etag, createdMs, modifiedMs, placement, media);
        } catch (RuntimeException e) {
            throw new IllegalStateException("the catalog entry of object " + id + " (" + bytes.length
                + " bytes) is not a schema " + SCHEMA_VERSION + " media object: " + e.getMessage(), e);
        }
    }

    /**
     * The name in the entry bytes of {@code size} bytes at {@code offset} of {@code bytes}, read
     * in place: what the catalog reads of each entry when it opens.
     */
    static String decodeName(RandomDataInput bytes, long offset, long size) {
        long at = offset;
        long lengthPlusOne = 0;
        for (int shift = 0; ; shift += 7) {
            if (at >= offset + size || shift > 28) {
                throw new IllegalStateException("a catalog entry of " + size + " bytes does not start with a name");
            }
            int b = bytes.readUnsignedByte(at++);
            lengthPlusOne |= (long) (b & 0x7f) << shift;
            if (b < 0x80) {
                break;
            }
        }
        if (lengthPlusOne == NULL || at + lengthPlusOne - 1 > offset + size) {
            throw new IllegalStateException("a catalog entry of " + size + " bytes has no name that fits in it");
        }
        byte[] utf8 = new byte[(int) lengthPlusOne - 1];
        bytes.read(at, utf8, 0, utf8.length);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    private static void encodeMedia(MediaIndex media, int fileCount, Writer out) {
        out.string(media.container());
        out.string(media.mimeType());
        out.string(media.codecs());
        out.signed(media.durationNs());
        ByteRange init = media.init();
        if (init == null) {
            out.unsigned(NULL);
        } else {
            out.unsigned(1);
            out.unsigned(init.offset());
            out.unsigned(init.length());
        }
        List<Fragment> fragments = media.fragments();
        out.unsigned(fragments.size());
        TablePrediction predicted = new TablePrediction(init, fileCount);
        for (Fragment fragment : fragments) {
            out.signed(fragment.startNs() - predicted.startNs);
            out.signed(fragment.durationNs() - predicted.durationNs);
            out.signed(fragment.offset() - predicted.offset);
            out.unsigned(fragment.length());
            int keyframe = keyframeCode(fragment);
            out.unsigned(zigzag((long) fragment.file() - predicted.file) << 2 | keyframe);
            out.signed(fragment.fileOffset() - predicted.fileOffset(fragment.file()));
            if (keyframe == KEYFRAME_LATER || keyframe == KEYFRAME_FIRST_LATER) {
                out.signed(fragment.keyframeNs() - fragment.startNs());
            }
            predicted.after(fragment);
        }
    }

    private static MediaIndex decodeMedia(Reader in, int fileCount) {
        String container = in.string();
        String mimeType = in.string();
        String codecs = in.string();
        long durationNs = in.signed();
        ByteRange init = in.unsigned() == NULL ? null : new ByteRange(in.unsigned(), in.unsigned());
        int count = Math.toIntExact(in.unsigned());
        if (count > in.remaining()) {
            throw new IllegalStateException(count + " fragments cannot fit in " + in.remaining() + " bytes");
        }
        Fragment[] fragments = new Fragment[count];
        TablePrediction predicted = new TablePrediction(init, fileCount);
        for (int i = 0; i < count; i++) {
            long startNs = predicted.startNs + in.signed();
            long fragmentDurationNs = predicted.durationNs + in.signed();
            long offset = predicted.offset + in.signed();
            long length = in.unsigned();
            long fileAndKeyframe = in.unsigned();
            int keyframe = (int) (fileAndKeyframe & 3);
            int file = Math.toIntExact(predicted.file + unzigzag(fileAndKeyframe >>> 2));
            long fileOffset = predicted.fileOffset(file) + in.signed();
            long keyframeNs = switch (keyframe) {
                case NO_KEYFRAME -> Fragment.NO_KEYFRAME;
                case KEYFRAME_AT_START -> startNs;
                default -> startNs + in.signed();
            };
            fragments[i] = new Fragment(startNs, fragmentDurationNs, offset, length, file, fileOffset, keyframeNs,
                keyframe == KEYFRAME_AT_START || keyframe == KEYFRAME_FIRST_LATER);
            predicted.after(fragments[i]);
        }
        return new MediaIndex(container, mimeType, codecs, durationNs, init, Arrays.asList(fragments));
    }

    private static int keyframeCode(Fragment fragment) {
        if (!fragment.hasKeyframe()) {
            return NO_KEYFRAME;
        }
        if (fragment.keyframeFirst()) {
            return fragment.keyframeNs() == fragment.startNs() ? KEYFRAME_AT_START : KEYFRAME_FIRST_LATER;
        }
        return KEYFRAME_LATER;
    }

    private static long zigzag(long value) {
        return value << 1 ^ value >> 63;
    }

    private static long unzigzag(long value) {
        return value >>> 1 ^ -(value & 1);
    }

    private static int estimateSize(MediaObject object) {
        int fragments = object.media() == null ? 0 : object.media().fragments().size();
        return 256 + 10 * fragments;
    }

    /**
     * What the fragments so far predict of the next: it starts where the last one ended, in the
     * media and in its file; it lasts as long; it is in the next file of the stripe.
     */
    private static final class TablePrediction {
        long startNs;
        long durationNs;
        long offset;
        long file = -1;
        private final long[] fileEnds;

        TablePrediction(ByteRange init, int fileCount) {
            offset = init == null ? 0 : init.end();
            fileEnds = new long[fileCount];
        }

        long fileOffset(int inFile) {
            if (inFile < 0) {
                return -1;
            }
            return inFile < fileEnds.length ? fileEnds[inFile] : 0;
        }

        void after(Fragment fragment) {
            startNs = fragment.startNs() + fragment.durationNs();
            durationNs = fragment.durationNs();
            offset = fragment.offset() + fragment.length();
            int inFile = fragment.file();
            if (inFile < 0) {
                file = inFile;
            } else if (inFile + 1 < fileEnds.length) {
                file = inFile + 1;
            } else {
                // Past the last file the stripe starts again at file 1: file 0 holds the init segment.
                file = fileEnds.length > 1 ? 1 : inFile;
            }
            if (inFile >= 0 && inFile < fileEnds.length) {
                fileEnds[inFile] = fragment.fileOffset() + fragment.length();
            }
        }
    }

    /** A growing byte array written with varints. */
    private static final class Writer {
        private byte[] buffer;
        private int position;

        Writer(int capacity) {
            buffer = new byte[capacity];
        }

        void unsigned(long value) {
            ensure(10);
            long v = value;
            while ((v & ~0x7fL) != 0) {
                buffer[position++] = (byte) ((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            buffer[position++] = (byte) v;
        }

        void signed(long value) {
            unsigned((value << 1) ^ (value >> 63));
        }

        void string(String value) {
            if (value == null) {
                unsigned(NULL);
                return;
            }
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            unsigned(utf8.length + 1L);
            ensure(utf8.length);
            System.arraycopy(utf8, 0, buffer, position, utf8.length);
            position += utf8.length;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buffer, position);
        }

        private void ensure(int more) {
            if (buffer.length - position < more) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, position + more));
            }
        }
    }

    /** Reads what {@link Writer} wrote; throws on bytes that run out or do not parse. */
    private static final class Reader {
        private final byte[] bytes;
        private int position;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        int remaining() {
            return bytes.length - position;
        }

        long unsigned() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (position >= bytes.length) {
                    throw new IllegalStateException("the entry ends inside a number");
                }
                byte b = bytes[position++];
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new IllegalStateException("a number longer than 10 bytes");
        }

        long signed() {
            long zigzag = unsigned();
            return (zigzag >>> 1) ^ -(zigzag & 1);
        }

        String string() {
            long lengthPlusOne = unsigned();
            if (lengthPlusOne == NULL) {
                return null;
            }
            if (lengthPlusOne - 1 > remaining()) {
                throw new IllegalStateException("a string of " + (lengthPlusOne - 1) + " bytes in " + remaining());
            }
            int length = (int) lengthPlusOne - 1;
            String value = new String(bytes, position, length, StandardCharsets.UTF_8);
            position += length;
            return value;
        }
    }
}
