package io.rondo.scheduler.device;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The profiler on the temporary folder's real device: a row per IO size, a fit that predicts the
 * measurements, a profile {@link DiskProfile} loads, and no test file left behind, whatever happens.
 */
class DiskProfilerTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    @TempDir
    Path out;

    @Test
    void profilesA32MibFileUpTo1MibIntoALoadableProfile() throws IOException {
        DiskIo io = DiskIo.best();
        List<String> progress = new ArrayList<>();

        DiskProfiler.Result result = profiler(io, (int) MIB, 7)
            .run(dir, 32 * MIB, (phase, done, total) -> progress.add(phase + " " + done + "/" + total));

        assertEquals(32 * MIB, result.fileBytes());
        assertEquals(io.kind(), result.reader());
        assertEquals(9, result.rows().size(), "4 KiB, 8 KiB, ..., 1 MiB: " + result.rows());
        long size = DiskProfiler.MIN_IO_BYTES;
        for (DiskProfiler.Row row : result.rows()) {
            assertEquals(size, row.ioBytes());
            assertTrue(row.reads() >= 16 && row.reads() <= 512, row.toString());
            assertTrue(row.minMBps() > 0 && row.minMBps() <= row.meanMBps() && row.meanMBps() <= row.maxMBps(),
                "min <= mean <= max: " + row);
            assertTrue(row.meanMs() <= row.maxMs(), row.toString());
            size *= 2;
        }
        DiskProfiler.Fit fit = result.fit();
        assertTrue(fit.accessMs() > 0, "a positive access time: " + fit);
        assertTrue(fit.transferBytesPerSecond() > 0, "a positive rate: " + fit);
        assertTrue(fit.accessMaxMs() >= fit.accessMs(), fit.toString());
        assertTrue(progress.contains("WRITING " + 32 * MIB + "/" + 32 * MIB), progress.toString());
        assertTrue(progress.contains("READING 9/9"), progress.toString());
        assertEquals("TIMING_WRITES 9/9", progress.get(progress.size() - 1));
        DiskProbeTest.assertEmpty(dir);
        assertEquals(9, result.writeRows().size(), "writes of the same sizes: " + result.writeRows());
        for (DiskProfiler.Row row : result.writeRows()) {
            assertTrue(row.reads() >= 16 && row.minMBps() <= row.meanMBps() && row.meanMBps() <= row.maxMBps(),
                row.toString());
        }
        DiskProfiler.Fit writeFit = result.writes().orElseThrow();
        assertTrue(writeFit.transferBytesPerSecond() > 0 && writeFit.accessMaxMs() >= writeFit.accessMs(),
            writeFit.toString());

        Path file = out.resolve("profile.json");
        result.writeProfile(file);
        DiskProfile profile = DiskProfile.load(file);

        assertEquals("measured-" + io.device(dir).name(), profile.name());
        assertEquals(32 * MIB, profile.capacityBytes());
        assertEquals(1000, profile.cylinders());
        DiskProfiler.Row largest = result.rows().get(result.rows().size() - 1);
        double transferMs = profile.transferNs(0, MIB) / 1e6;
        assertTrue(transferMs > largest.meanMs() / 3 && transferMs < largest.meanMs() * 3,
            "the model's transfer of 1 MiB, " + transferMs + " ms, is within a factor of 3 of the measured mean "
                + largest.meanMs() + " ms");
        assertEquals(Math.round(fit.accessMs() * 1e6), profile.seekNs(0, profile.positionOfCylinder(1)), 1_000,
            "any move costs the mean access time");
        for (DiskProfiler.Row row : result.rows()) {
            double boundMs = (profile.maxSeekNs() + profile.worstCaseRotationNs()
                + profile.transferNs(0, row.ioBytes())) / 1e6;
            assertTrue(boundMs >= row.maxMs() - 0.01, "seek + rotation + transfer bounds the slowest read: "
                + boundMs + " ms against " + row);
        }
        JsonNode measured = new ObjectMapper().readTree(file.toFile()).get("measured");
        assertEquals(9, measured.get("rows").size());
        assertEquals(4096, measured.get("rows").get(0).get("ioBytes").asInt());
        assertTrue(profile.description().contains("rondo profile"), profile.description());
        DiskProfile.Measurement measurement = profile.measurement().orElseThrow();
        DeviceInfo device = io.device(dir);
        assertEquals(device.id(), measurement.deviceId(), "the device it was measured on, to tell when it changes");
        assertEquals(device.sizeBytes(), measurement.deviceBytes());
        assertEquals(device.name(), measurement.device());
        assertEquals(result.measuredAt(), measurement.at());
        assertEquals(fit.accessMs(), measurement.accessMs(), 1e-6);
        assertEquals(fit.transferBytesPerSecond(), measurement.transferBytesPerSecond(), 1);
        DiskProfile.WriteCurve writes = profile.writeCurve().orElseThrow();
        assertEquals(writeFit.accessMs(), writes.accessMs(), 1e-6);
        assertEquals(writeFit.accessMaxMs(), writes.accessMaxMs(), 1e-6);
        assertEquals(writeFit.transferBytesPerSecond(), writes.transferBytesPerSecond(), 1);
        assertEquals(9, writes.rows().size());
        assertTrue(profile.description().contains("fdatasync"), profile.description());
    }

    /** The quick effort of a server's first start: fewer reads of each size, still a fit. */
    @Test
    void aQuickRunTakesFewerReadsAndStillFits() throws IOException {
        DiskProfiler.Result result = profiler(DiskIo.best(), (int) MIB, 3, DiskProfiler.Effort.QUICK)
            .run(dir, 16 * MIB, DiskProfiler.Listener.NONE);

        for (DiskProfiler.Row row : result.rows()) {
            assertTrue(row.reads() >= DiskProfiler.Effort.QUICK.minReads(), row.toString());
        }
        assertTrue(result.fit().transferBytesPerSecond() > 0, result.fit().toString());
        DiskProbeTest.assertEmpty(dir);
    }

    /** A listener that throws stops the run, and the test file goes with it. */
    @Test
    void aListenerThatThrowsStopsTheRunAndTheFileIsDeleted() throws IOException {
        IllegalStateException stop = new IllegalStateException("stopped by the test");

        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> profiler(DiskIo.best(), (int) MIB, 3).run(dir, 16 * MIB, (phase, done, total) -> {
                if (phase == DiskProfiler.Phase.READING) {
                    throw stop;
                }
            }));

        assertSame(stop, e);
        DiskProbeTest.assertEmpty(dir);
    }

    /** Stopped while it times writes, the run deletes the scratch file it writes into as well as the test file. */
    @Test
    void aRunStoppedWhileTimingWritesLeavesNoFile() throws IOException {
        IllegalStateException stop = new IllegalStateException("stopped by the test");

        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> profiler(DiskIo.best(), (int) MIB, 3).run(dir, 16 * MIB, (phase, done, total) -> {
                if (phase == DiskProfiler.Phase.TIMING_WRITES && done == 1) {
                    assertEquals(2, dir.toFile().list().length, "the test file and the scratch file");
                    throw stop;
                }
            }));

        assertSame(stop, e);
        DiskProbeTest.assertEmpty(dir);
    }

    @Test
    void refusesATestFileUnder16Mib() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> profiler(DiskIo.best(), DiskProfiler.MAX_IO_BYTES, 1).run(dir, 8 * MIB, DiskProfiler.Listener.NONE));

        assertTrue(e.getMessage().contains("at least 16 MiB"), e.getMessage());
        DiskProbeTest.assertEmpty(dir);
    }

    @Test
    void refusesAMissingDirectoryOrAFile() throws IOException {
        Path file = Files.writeString(out.resolve("file"), "x");
        DiskProfiler profiler = profiler(DiskIo.best(), DiskProfiler.MAX_IO_BYTES, 1);

        assertEquals(dir.resolve("missing") + " does not exist", assertThrows(IllegalArgumentException.class,
            () -> profiler.run(dir.resolve("missing"), 32 * MIB, DiskProfiler.Listener.NONE)).getMessage());
        assertEquals(file + " is not a directory", assertThrows(IllegalArgumentException.class,
            () -> profiler.run(file, 32 * MIB, DiskProfiler.Listener.NONE)).getMessage());
    }

    /** A failure half way still deletes the test file. */
    @Test
    void deletesTheTestFileWhenReadingFails() throws IOException {
        DiskIo failing = new DiskIo() {
            @Override
            public String kind() {
                return "failing";
            }

            @Override
            public String fallbackReason() {
                return "a test";
            }

            @Override
            public boolean directIo() {
                return true;
            }

            @Override
            public boolean physicalPositions() {
                return false;
            }

            @Override
            public OpenFile open(Path file) throws IOException {
                assertTrue(Files.isRegularFile(file), "the test file exists while it is read");
                throw new IOException("open " + file + ": refused by the test");
            }

            @Override
            public WritableFile openForWriting(Path file) throws IOException {
                throw new IOException("open " + file + " for writing: refused by the test");
            }

            @Override
            public DeviceInfo device(Path path) throws IOException {
                return DiskIo.best().device(path);
            }
        };

        IOException e = assertThrows(IOException.class,
            () -> profiler(failing, 1 << 16, 1).run(dir, 16 * MIB, DiskProfiler.Listener.NONE));

        assertTrue(e.getMessage().contains("refused by the test"), e.getMessage());
        DiskProbeTest.assertEmpty(dir);
    }

    @Test
    void refusesALargestIoSizeThatIsNotAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> profiler(DiskIo.best(), 12_288, 1));
        assertThrows(IllegalArgumentException.class, () -> profiler(DiskIo.best(), 4096, 1));
    }

    /** A profiler of the full effort timing on the machine's clocks, as {@code rondo profile}'s. */
    private static DiskProfiler profiler(DiskIo io, int maxIoBytes, long seed) {
        return profiler(io, maxIoBytes, seed, DiskProfiler.Effort.FULL);
    }

    /** A profiler timing on the machine's clocks. */
    private static DiskProfiler profiler(DiskIo io, int maxIoBytes, long seed, DiskProfiler.Effort effort) {
        return new DiskProfiler(io, maxIoBytes, seed, effort, SystemClocks.nanoClock(), SystemClocks.epochClock());
    }
}
