package io.rondo.benchmarks.jmh;

import io.rondo.content.catalog.ChronicleCatalog;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.Placement;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.time.SystemClocks;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How long the content catalog takes to open: {@code objects} objects, one in a hundred a 2-hour
 * film of 7200 fragments, the rest documents, written once to a temporary folder; each
 * measurement opens it (maps, schema check, the name index rebuilt from the entries) and the
 * catalog is closed outside the measurement. Target: under 1 s for 100,000 objects.
 *
 * <p>Chronicle Map needs the JVM flags of the parent pom's {@code rondo.jvm.flags} in the JVM
 * JMH forks, which an annotation cannot read from Maven; give them to the host JVM, whose flags
 * the fork inherits (the jar's Add-Opens and Add-Exports manifest entries reach only the host):
 * <pre>
 * java --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED \
 *   --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED \
 *   --add-opens=java.base/java.lang.reflect=ALL-UNNAMED -Dchronicle.analytics.disable=true \
 *   -jar benchmarks/target/benchmarks.jar CatalogReopen
 * </pre>
 * or pass the same flags to the fork alone with {@code -jvmArgsAppend "..."}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(1)
public class CatalogReopenBenchmark {

    private static final long SECOND_NS = 1_000_000_000L;

    @Param("100000")
    public int objects;

    private Path dataDir;
    private ChronicleCatalog catalog;

    @Setup(Level.Trial)
    public void writeCatalog() throws IOException {
        dataDir = Files.createTempDirectory("rondo-catalog-benchmark");
        try (ChronicleCatalog writing = ChronicleCatalog.open(dataDir, SystemClocks.utc())) {
            for (int i = 0; i < objects; i++) {
                String name = String.format("/library/%03d/object-%06d", i % 997, i);
                writing.put(i % 100 == 0 ? film(writing.nextId(), name, i) : document(writing.nextId(), name));
            }
        }
    }

    @Benchmark
    public int reopen() {
        catalog = ChronicleCatalog.open(dataDir, SystemClocks.utc());
        return catalog.size();
    }

    @TearDown(Level.Invocation)
    public void closeCatalog() {
        catalog.close();
    }

    @TearDown(Level.Trial)
    public void deleteCatalog() throws IOException {
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    private static MediaObject document(long id, String name) {
        StoredFile file = new StoredFile("sdb", "objects/" + Long.toHexString(id), 10_000 + id);
        return new MediaObject(id, name, Kind.DISCRETE, "application/pdf", file.length(), "\"" + Long.toHexString(id
            * 0x9E3779B97F4A7C15L) + "\"", 1_700_000_000_000L, 1_700_000_000_000L, new Placement(List.of(file)), null);
    }

    private static MediaObject film(long id, String name, long seed) {
        Random random = new Random(seed);
        ByteRange init = new ByteRange(0, 4_000);
        int disks = 4;
        long[] fileEnds = new long[disks + 1];
        List<Fragment> table = new ArrayList<>();
        long offset = init.end();
        for (int i = 0; i < 7200; i++) {
            long length = 60_000 + random.nextInt(250_000);
            int file = 1 + i % disks;
            table.add(new Fragment(i * SECOND_NS, SECOND_NS, offset, length, file, fileEnds[file]));
            offset += length;
            fileEnds[file] += length;
        }
        List<StoredFile> files = new ArrayList<>();
        files.add(new StoredFile("sda", "objects/" + id + "/init", init.length()));
        for (int disk = 1; disk <= disks; disk++) {
            files.add(new StoredFile("sd" + (char) ('a' + disk), "objects/" + id + "/" + disk, fileEnds[disk]));
        }
        MediaIndex media = new MediaIndex("webm", "video/webm", "vp9, opus", 7200 * SECOND_NS, init, table);
        return new MediaObject(id, name, Kind.CONTINUOUS, "video/webm", offset, "\"" + id + "\"", 1_700_000_000_000L,
            1_700_000_000_000L, new Placement(files), media);
    }
}
