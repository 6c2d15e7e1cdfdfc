package io.rondo.benchmarks.preset.jitter;

import io.rondo.benchmarks.load.greedy.GreedyReader;
import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.load.paced.PacedReader;
import io.rondo.benchmarks.load.paced.RangeSource;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Nginx;
import io.rondo.scheduler.time.SystemClocks;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The best-effort side of figure14 against a real nginx on a kernel-picked loopback port. */
class NginxPacedReadTest {

    @TempDir
    Path dir;

    @BeforeEach
    void nginxIsInstalled() throws Exception {
        Assumptions.assumeTrue(Nginx.available(), "nginx is not installed at " + Nginx.binary()
            + " (apt-get install nginx-light): the paced reader's test against a real nginx is skipped");
        // nginx's workers run as an unprivileged user: they must be able to enter the test's folder.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void pacedRangeReadsAndGreedyDownloadsReadEveryByteFromNginx() throws Exception {
        FileSet files = FileSet.make(dir.resolve("www"), 2, 40_000, 0, 7);
        for (Nginx.Variant variant : Nginx.Variant.values()) {
            try (Nginx nginx = Nginx.start(files.folder(), variant, dir.resolve(variant.label()),
                SystemClocks.nanoClock());
                 HttpConnection paced = new HttpConnection(nginx.address().getHostString(), nginx.address().getPort());
                 HttpConnection greedy = new HttpConnection(nginx.address().getHostString(),
                     nginx.address().getPort())) {
                // 10 kB blocks of a 40,000-byte file at 1 MB/s: one read every 10 ms, the fourth a 10,000-byte tail.
                RangeSource source = new RangeSource(paced, "/" + files.names().get(0), files.sizes()[0], 10_000,
                    1_000_000, 0);
                DelayLog log = new DelayLog();
                PacedReader reader = new PacedReader(source, System::nanoTime, PacedReader.parkingOn(System::nanoTime),
                    log.pacedReads());
                long startNs = System.nanoTime();
                long reads = reader.run(startNs, startNs + 100_000_000);
                // Ten are due; a read that ends past the next one's due time forgives it (rwrt), as a cold
                // server's first reads may.
                assertTrue(reads >= 1 && reads <= 10, variant.label() + ": " + reads + " reads");
                assertTrue(System.nanoTime() - startNs >= 90_000_000, "the reads were paced, the last due at 90 ms");
                Histogram jitter = log.delays();
                assertEquals(reads, jitter.getTotalCount());
                assertTrue(jitter.getMaxValue() < 1_000_000_000L, variant.label() + ": a loopback read took over 1 s");
                assertEquals(0, log.failures());
                assertEquals(reads, log.wakeUps().getTotalCount());
                assertTrue(log.wakeUps().getMaxValue() <= jitter.getMaxValue(), "a read completes after its wake-up");

                DelayLog greedyLog = new DelayLog();
                GreedyReader downloader = new GreedyReader(greedy, List.of("/" + files.names().get(1)),
                    System::nanoTime, System.nanoTime() + 50_000_000, greedyLog);
                downloader.run();
                assertTrue(greedyLog.delays().getTotalCount() >= 1, variant.label());
                assertEquals(greedyLog.delays().getTotalCount() * files.sizes()[1], greedyLog.bytes());
                assertEquals(greedyLog.bytes(), greedy.bodyBytes());
            }
        }
    }

    @Test
    void aMissingFileIsAFailedRequestNotAJitter() throws Exception {
        FileSet files = FileSet.make(dir.resolve("www"), 1, 4_096, 0, 7);
        try (Nginx nginx = Nginx.start(files.folder(), Nginx.Variant.SENDFILE, dir.resolve("nginx"),
            SystemClocks.nanoClock());
             HttpConnection connection = new HttpConnection(nginx.address().getHostString(),
                 nginx.address().getPort())) {
            DelayLog log = new DelayLog();
            new GreedyReader(connection, List.of("/missing.bin"), System::nanoTime, System.nanoTime() + 1_000_000_000L,
                log).run();
            assertEquals(1, log.failures());
            assertTrue(log.firstFailure().contains("404"), log.firstFailure());
            assertEquals(0, log.delays().getTotalCount());
        }
    }
}
