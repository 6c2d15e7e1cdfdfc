package io.rondo.content.catalog;

import java.nio.file.Path;
import java.time.Clock;

/**
 * The child JVM of {@link ChildJvmCatalogTest}: opens the catalog, reports how long that took,
 * and puts {@link CatalogObjects#numbered} objects from where the catalog stands, printing
 * {@code put N} once each put has returned; then closes and exits, or, with no count, goes on
 * until it is killed.
 */
public final class CatalogChild {

    private CatalogChild() {
    }

    /** Arguments: the data folder, and how many objects the catalog should hold when the child exits. */
    public static void main(String[] args) {
        long startNs = System.nanoTime();
        try (ChronicleCatalog catalog = ChronicleCatalog.open(Path.of(args[0]), Clock.systemUTC())) {
            System.out.println("opened in " + (System.nanoTime() - startNs) / 1_000_000 + " ms, recovered "
                + catalog.recovered());
            int until = args.length > 1 ? Integer.parseInt(args[1]) : Integer.MAX_VALUE;
            for (int i = catalog.size(); i < until; i++) {
                catalog.put(CatalogObjects.numbered(catalog.nextId(), i));
                System.out.println("put " + i);
                System.out.flush();
            }
        }
    }
}
