package io.rondo.content.catalog;

import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.Placement;
import io.rondo.content.model.StoredFile;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Media objects for catalog tests, the same for the same arguments (child JVMs rebuild them to compare). */
final class CatalogObjects {

    static final long CREATED_MS = 1_700_000_000_000L;
    static final long SECOND_NS = 1_000_000_000L;

    private CatalogObjects() {
    }

    /** A document stored whole on one disk. */
    static MediaObject discrete(long id, String name) {
        return new MediaObject(id, name, Kind.DISCRETE, "application/pdf", 1_000 + id * 7, etag(name, id),
            CREATED_MS + id, CREATED_MS + id * 2, new Placement(List.of(new StoredFile("sdb", "objects/"
            + Long.toHexString(id) + ".pdf", 1_000 + id * 7))), null);
    }

    /**
     * A WebM film of {@code fragments} one-second fragments of varying size, placed the way
     * ingest places it: the init segment in file 0, then the fragments striped round-robin over
     * files 1 to {@code disks}, each disk's share contiguous.
     */
    static MediaObject film(long id, String name, int fragments, int disks, long seed) {
        Random random = new Random(seed);
        ByteRange init = new ByteRange(0, 4_000 + random.nextInt(1_000));
        List<StoredFile> files = new ArrayList<>();
        files.add(new StoredFile("sda", "objects/" + id + "/init", init.length()));
        long[] fileEnds = new long[disks + 1];
        List<Fragment> table = new ArrayList<>(fragments);
        long offset = init.end();
        for (int i = 0; i < fragments; i++) {
            long length = 60_000 + random.nextInt(250_000);
            int file = 1 + i % disks;
            table.add(new Fragment(i * SECOND_NS, SECOND_NS, offset, length, file, fileEnds[file]));
            offset += length;
            fileEnds[file] += length;
        }
        for (int disk = 1; disk <= disks; disk++) {
            files.add(new StoredFile("sd" + (char) ('a' + disk), "objects/" + id + "/stripe-" + disk,
                fileEnds[disk]));
        }
        MediaIndex media = new MediaIndex("webm", "video/webm", "vp9, opus", fragments * SECOND_NS, init, table);
        return new MediaObject(id, name, Kind.CONTINUOUS, "video/webm", offset, etag(name, id), CREATED_MS,
            CREATED_MS, new Placement(files), media);
    }

    /** Object {@code index} of a numbered series: mostly documents, every tenth a 2-hour film. */
    static MediaObject numbered(long id, int index) {
        String name = numberedName(index);
        return index % 10 == 0 ? film(id, name, 7200, 4, index) : discrete(id, name);
    }

    static String numberedName(int index) {
        return String.format("/series/%06d", index);
    }

    private static String etag(String name, long id) {
        return "\"" + Integer.toHexString(name.hashCode()) + "-" + Long.toHexString(id * 0x9E3779B97F4A7C15L) + "\"";
    }
}
