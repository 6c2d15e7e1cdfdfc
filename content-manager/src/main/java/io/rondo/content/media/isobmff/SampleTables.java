package io.rondo.content.media.isobmff;

import io.rondo.content.media.FieldCursor;
import io.rondo.content.media.MediaFormatException;
import java.util.Set;

/**
 * The sample tables of a progressive MP4's trak (stsz or stz2, stts, stsc, stco or co64, ctts,
 * stss; ISO/IEC 14496-12 8.6 and 8.7) expanded into its {@link SampleTrack}.
 */
final class SampleTables {

    private SampleTables() {
    }

    /** One stsc entry: from this chunk on, this many samples per chunk, of this sample description. */
    private record ChunkRun(long firstChunk, long samplesPerChunk, long descriptionIndex) {
        static ChunkRun read(FieldCursor stsc) throws MediaFormatException {
            return new ChunkRun(stsc.u32(), stsc.u32(), stsc.u32());
        }
    }

    /** The sample count of stsz or stz2, as room to reserve (the tables are checked when read). */
    static int sampleCount(Trak t) throws MediaFormatException {
        FieldCursor sizes = t.tables.containsKey("stsz") ? t.tables.get("stsz") : t.tables.get("stz2");
        if (sizes == null) {
            return 0;
        }
        FieldCursor c = sizes.copy();
        c.skip(8);
        return (int) Math.min(c.u32(), 1 << 24);
    }

    /** Expands a trak's sample tables into its samples (none for a fragmented file's empty tables). */
    static void read(Trak t, long fileSize, Set<String> notes) throws MediaFormatException {
        FieldCursor stsz = t.tables.get("stsz");
        FieldCursor stz2 = t.tables.get("stz2");
        if (stsz == null && stz2 == null) {
            return;
        }
        SampleSizes sizes = new SampleSizes(table(t, stsz != null ? "stsz" : "stz2", true), stsz == null);
        long n = sizes.count;
        if (n == 0) {
            return;
        }
        String track = "track " + t.id;
        FieldCursor stts = table(t, "stts", true);
        FieldCursor stsc = table(t, "stsc", true);
        boolean wide = !t.tables.containsKey("stco");
        FieldCursor chunks = table(t, wide ? "co64" : "stco", true);
        long chunkCount = chunks.u32();
        long stscCount = stsc.u32();
        long sttsCount = stts.u32();
        FieldCursor ctts = table(t, "ctts", false);
        boolean signedOffsets = ctts != null && ctts.copy().u8() == 1;
        long cttsLeft = 0;
        if (ctts != null) {
            ctts.skip(4);
            cttsLeft = ctts.u32();
        }
        FieldCursor stss = table(t, "stss", false);
        long syncLeft = 0;
        long nextSync = -1;
        if (stss != null) {
            syncLeft = stss.u32();
            nextSync = syncLeft-- > 0 ? stss.u32() : Long.MAX_VALUE;
        }

        long sample = 0;
        long decodeTime = 0;
        long sttsRun = 0;
        long delta = 0;
        long cttsRun = 0;
        int compositionOffset = 0;
        ChunkRun stscEntry = stscCount > 0 ? ChunkRun.read(stsc) : null;
        long stscLeft = stscCount - (stscCount > 0 ? 1 : 0);
        ChunkRun nextEntry = stscLeft > 0 ? ChunkRun.read(stsc) : null;
        if (stscEntry == null || stscEntry.firstChunk() != 1) {
            throw MediaFormatException.corrupt(stsc.what() + " does not start at chunk 1");
        }
        for (long chunk = 1; chunk <= chunkCount && sample < n; chunk++) {
            while (nextEntry != null && chunk >= nextEntry.firstChunk()) {
                if (nextEntry.firstChunk() <= stscEntry.firstChunk()) {
                    throw MediaFormatException.corrupt(stsc.what() + " lists chunk " + nextEntry.firstChunk()
                        + " after chunk " + stscEntry.firstChunk());
                }
                stscEntry = nextEntry;
                stscLeft--;
                nextEntry = stscLeft > 0 ? ChunkRun.read(stsc) : null;
            }
            if (stscEntry.descriptionIndex() != 1) {
                notes.add(track + " switches to sample description " + stscEntry.descriptionIndex()
                    + " of its stsd, and Rondo stores a track under one; make it streamable with: "
                    + "ffmpeg -i IN -c:v libx264 -c:a aac OUT.mp4");
            }
            long offset = wide ? chunks.u64() : chunks.u32();
            for (long j = 0; j < stscEntry.samplesPerChunk() && sample < n; j++) {
                int size = sizes.next();
                while (sttsRun == 0) {
                    if (sttsCount == 0) {
                        throw MediaFormatException.corrupt(stts.what() + " gives times to " + sample + " of the "
                            + n + " samples of " + track);
                    }
                    sttsRun = stts.u32();
                    delta = stts.u32();
                    sttsCount--;
                }
                while (cttsRun == 0 && cttsLeft > 0) {
                    cttsRun = ctts.u32();
                    compositionOffset = signedOffsets ? ctts.s32() : (int) ctts.u32();
                    cttsLeft--;
                }
                if (cttsRun == 0) {
                    compositionOffset = 0;
                }
                boolean sync = stss == null || sample + 1 == nextSync;
                if (sync && stss != null) {
                    nextSync = syncLeft > 0 ? stss.u32() : Long.MAX_VALUE;
                    syncLeft--;
                }
                Mp4Demuxer.checkInFile(fileSize, offset, size, sample, track);
                t.samples.add(offset, size, decodeTime, delta, compositionOffset, sync);
                offset += size;
                decodeTime = Mp4Demuxer.add(decodeTime, delta, t.where);
                sttsRun--;
                if (cttsRun > 0) {
                    cttsRun--;
                }
                sample++;
            }
        }
        if (sample < n) {
            throw MediaFormatException.corrupt("the chunks (stco/co64 and stsc) of " + t.where + " hold " + sample
                + " of its " + n + " samples");
        }
        t.nextDecodeTime = decodeTime;
    }

    /** A sample table past its version and flags, or null for an optional one the trak lacks. */
    private static FieldCursor table(Trak t, String type, boolean required) throws MediaFormatException {
        FieldCursor c = t.tables.get(type);
        if (c == null) {
            if (required) {
                throw MediaFormatException.corrupt(t.where + " has samples but no " + type);
            }
            return null;
        }
        c = c.copy();
        if (!type.equals("ctts")) {
            c.skip(4);
        }
        return c;
    }

    /** The sample sizes of an stsz (one size for all, or one each) or an stz2 (4, 8 or 16 bits each). */
    private static final class SampleSizes {
        private final FieldCursor table;
        private final long count;
        private final long constant;
        private final int fieldBits;
        private int pendingNibble = -1;

        SampleSizes(FieldCursor table, boolean compact) throws MediaFormatException {
            this.table = table;
            if (compact) {
                table.skip(3);
                fieldBits = table.u8();
                constant = 0;
                if (fieldBits != 4 && fieldBits != 8 && fieldBits != 16) {
                    throw MediaFormatException.corrupt(table.what() + " has fields of " + fieldBits + " bits");
                }
            } else {
                constant = table.u32();
                fieldBits = 32;
            }
            count = table.u32();
        }

        int next() throws MediaFormatException {
            long size;
            if (constant > 0) {
                size = constant;
            } else {
                switch (fieldBits) {
                    case 4 -> {
                        if (pendingNibble >= 0) {
                            size = pendingNibble;
                            pendingNibble = -1;
                        } else {
                            int b = table.u8();
                            size = b >> 4;
                            pendingNibble = b & 0x0F;
                        }
                    }
                    case 8 -> size = table.u8();
                    case 16 -> size = table.u16();
                    default -> size = table.u32();
                }
            }
            if (size > Integer.MAX_VALUE) {
                throw MediaFormatException.corrupt(table.what() + " claims a sample of " + size + " bytes");
            }
            return (int) size;
        }
    }
}
