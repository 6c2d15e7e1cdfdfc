package io.rondo.content.ingest;

import io.rondo.content.catalog.ChronicleCatalog;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/** The child JVM of {@link CrashSafeIngestTest}: ingests files until it is killed. */
public final class IngestCrashChild {

    private IngestCrashChild() {
    }

    /** Arguments: the data folder, the folder of inputs, how many to ingest. */
    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[0]);
        Path inputs = Path.of(args[1]);
        int count = Integer.parseInt(args[2]);
        try (ChronicleCatalog catalog = ChronicleCatalog.open(data.resolve("rondo"), Clock.systemUTC())) {
            ContentStore store = new ContentStore(catalog, List.of(new StorageDisk("d0", data)));
            IngestService ingest = new IngestService(store, PlacementPolicy.STRIPED, 1_000_000_000L,
                Clock.systemUTC());
            ingest.recover();
            System.out.println("ready");
            System.out.flush();
            for (int i = catalog.size(); i < count; i++) {
                ingest.ingest(IngestRequest.of(inputs.resolve("f" + i + ".bin")), copied -> { });
                System.out.println("ingested " + i);
                System.out.flush();
            }
        }
    }
}
