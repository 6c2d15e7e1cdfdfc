package io.rondo.server.runtime;

import io.rondo.content.ingest.StorageDisk;
import io.rondo.scheduler.device.DeviceInfo;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.DiskProfiler;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The disk model is the disk's: the first start on a disk profiles it and stores the profile, the
 * next reuses it, a changed device is profiled again; with a fake device lookup and a fake
 * profiler that answers at once, so no test waits on a disk but the last.
 */
class DiskModelsTest {

    private static final long GIB = 1L << 30;
    private static final Instant MEASURED_AT = Instant.parse("2026-11-23T10:15:30Z");

    @TempDir
    Path root;

    private DeviceInfo device = new DeviceInfo(8, 0, "sda", false, 512, 500 * GIB);
    private final List<String> profiled = new ArrayList<>();
    private final List<String> told = new ArrayList<>();
    private DiskModels models;
    private StorageDisk disk;

    @BeforeEach
    void fakes() {
        disk = new StorageDisk("sda", root);
        models = new DiskModels(path -> device, (dir, on, listener) -> {
            profiled.add(on.id());
            assertEquals(root.resolve("rondo"), dir, "the test file goes into the disk's rondo/ folder");
            listener.progress(DiskProfiler.Phase.READING, 1, 2);
            return fakeResult(dir, on);
        });
    }

    private DiskModels.Listener telling() {
        return (name, where, why) -> {
            told.add(name + ": " + why);
            return DiskProfiler.Listener.NONE;
        };
    }

    private DiskModels.Choice choose() {
        return models.choose("measured", "configured", List.of(disk), false, telling()).get(0);
    }

    /** A device of 180 MB/s with an access time of 0.2 ms, measured once. */
    private static DiskProfiler.Result fakeResult(Path dir, DeviceInfo on) {
        List<DiskProfiler.Row> rows = List.of(
            new DiskProfiler.Row(4096, 8, 10, 18, 20, 0.22, 0.4, 0.2, 0.38),
            new DiskProfiler.Row(1 << 20, 8, 150, 170, 175, 6.0, 7.0, 0.2, 1.2));
        return new DiskProfiler.Result(dir, on, "fake", 64L << 20, MEASURED_AT, 1.5, rows,
            new DiskProfiler.Fit(0.2, 1.2, 180e6));
    }

    @Test
    void theFirstStartProfilesTheDiskAndStoresTheProfile() throws IOException {
        DiskModels.Choice first = choose();

        assertEquals(List.of("8:0"), profiled);
        assertEquals(List.of("sda: no profile is stored for it yet"), told);
        assertEquals(DiskModels.Source.MEASURED, first.source());
        Path stored = root.resolve(DiskModels.STORED_PROFILE);
        assertTrue(Files.isRegularFile(stored), "stored in the disk's rondo/ folder");
        assertEquals("disk sda (" + root + "): measured profile, measured now in 1.5 s and stored in " + stored
            + ", 172 MiB/s sequential, 0.200 ms access", first.account());
        DiskProfile profile = DiskProfile.load(stored);
        assertEquals("8:0", profile.measurement().orElseThrow().deviceId());
        assertEquals(500 * GIB, profile.measurement().orElseThrow().deviceBytes());
        assertEquals(first.profile().maxSeekNs(), profile.maxSeekNs());
        try (Stream<Path> files = Files.list(root.resolve("rondo"))) {
            assertEquals(List.of(stored), files.toList(), "nothing else left behind");
        }
    }

    @Test
    void theNextStartReusesTheStoredProfile() {
        choose();

        DiskModels.Choice second = choose();

        assertEquals(1, profiled.size(), "profiled once: " + profiled);
        assertEquals(DiskModels.Source.STORED, second.source());
        assertEquals("disk sda (" + root + "): measured profile, stored 2026-11-23, 172 MiB/s sequential, "
            + "0.200 ms access", second.account());
        assertEquals(0.2, second.profile().measurement().orElseThrow().accessMs(), 1e-9);
    }

    @Test
    void anotherDeviceIsProfiledAgain() {
        choose();
        device = new DeviceInfo(8, 16, "sdb", false, 512, 500 * GIB);

        DiskModels.Choice moved = choose();

        assertEquals(List.of("8:0", "8:16"), profiled);
        assertEquals(DiskModels.Source.MEASURED, moved.source());
        assertTrue(told.get(1).contains("the device changed: " + root.resolve(DiskModels.STORED_PROFILE)
            + " was measured on sda (8:0, 536870912000 bytes), this is sdb (8:16, 536870912000 bytes)"), told.get(1));
        assertEquals(DiskModels.Source.STORED, choose().source(), "and the new one is kept");
    }

    /** The same numbers on a device of another size: replaced, or resized. */
    @Test
    void aDeviceOfAnotherSizeIsProfiledAgain() {
        choose();
        device = new DeviceInfo(8, 0, "sda", false, 512, 1000 * GIB);

        assertEquals(DiskModels.Source.MEASURED, choose().source());

        assertEquals(2, profiled.size());
    }

    @Test
    void aDamagedStoredProfileIsMeasuredAgain() throws IOException {
        choose();
        Files.writeString(root.resolve(DiskModels.STORED_PROFILE), "{ not json");

        assertEquals(DiskModels.Source.MEASURED, choose().source());

        assertTrue(told.get(1).startsWith("sda: the stored profile is not valid (disk profile "), told.get(1));
        assertEquals(DiskModels.Source.STORED, choose().source());
    }

    @Test
    void aNamedProfileGoesToEveryDiskUnmeasured() throws IOException {
        Path other = Files.createDirectory(root.resolve("other"));
        List<DiskModels.Choice> choices = models.choose("nerjes-1999", "configured",
            List.of(disk, new StorageDisk("sdb", other)), false, telling());

        assertEquals(2, choices.size());
        assertEquals("disk sda (" + root + "): nerjes-1999 (configured)", choices.get(0).account());
        assertEquals("disk sdb (" + other + "): nerjes-1999 (configured)", choices.get(1).account());
        assertEquals(DiskModels.Source.NAMED, choices.get(1).source());
        assertTrue(profiled.isEmpty());
        assertFalse(Files.exists(root.resolve(DiskModels.STORED_PROFILE)));
    }

    @Test
    void anUnknownNameIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> models.choose("quantum-2001", "--disk-profile", List.of(disk), false, telling()));

        assertTrue(e.getMessage().contains("no built-in disk profile named 'quantum-2001'"), e.getMessage());
    }

    /** An emulated disk times IOs on the paper's disk, so nothing is measured. */
    @Test
    void anEmulatedDiskKeepsThePapersDisk() {
        DiskModels.Choice emulated = models.choose("measured", "configured", List.of(disk), true, telling()).get(0);

        assertEquals(DiskModels.Source.EMULATED, emulated.source());
        assertEquals(DiskProfile.PAPER_DISK, emulated.profile().name());
        assertTrue(emulated.account().contains("nerjes-1999 (emulated"), emulated.account());
        assertTrue(profiled.isEmpty());
    }

    /** Where the device cannot be profiled, the paper's disk, and the account says why and what to do. */
    @Test
    void aFailedProfileFallsBackToThePapersDiskAndSaysWhy() {
        DiskModels failing = new DiskModels(path -> device, (dir, on, listener) -> {
            throw new IllegalArgumentException("the file system of " + dir + " refuses O_DIRECT");
        });

        DiskModels.Choice choice = failing.choose("measured", "configured", List.of(disk), false, telling()).get(0);

        assertEquals(DiskModels.Source.FALLBACK, choice.source());
        assertEquals(DiskProfile.PAPER_DISK, choice.profile().name());
        assertTrue(choice.account().contains("nerjes-1999, because measuring the device failed: the file system of "
            + root.resolve("rondo") + " refuses O_DIRECT; name a profile with --disk-profile FILE"), choice.account());
        assertFalse(Files.exists(root.resolve(DiskModels.STORED_PROFILE)),
            "nothing stored: the next start tries again");
    }

    /** Ctrl-C while profiling: the listener throws, and nothing is stored. */
    @Test
    void aStoppedProfileStoresNothing() {
        DiskModels.Listener stopping = (name, where, why) -> (phase, done, total) -> {
            throw new CancellationException("stopped");
        };

        assertThrows(CancellationException.class,
            () -> models.choose("measured", "configured", List.of(disk), false, stopping));

        assertFalse(Files.exists(root.resolve(DiskModels.STORED_PROFILE)));
    }

    /** The real profiler on the temporary folder's device, with a tiny test file: stored, then reused. */
    @Test
    void aRealDiskIsProfiledOnceAndReused() throws IOException {
        DiskIo io = DiskIo.best();
        List<Long> written = new ArrayList<>();
        DiskModels real = new DiskModels(io::device, (dir, on, listener) -> new DiskProfiler(io, 1 << 18, 5,
            DiskProfiler.Effort.QUICK, SystemClocks.nanoClock(), SystemClocks.epochClock())
            .run(dir, 16L << 20, (phase, done, total) -> {
                if (phase == DiskProfiler.Phase.WRITING) {
                    written.add(done);
                }
                listener.progress(phase, done, total);
            }));

        DiskModels.Choice first = real.choose("measured", "configured", List.of(disk), false, telling()).get(0);
        DiskModels.Choice second = real.choose("measured", "configured", List.of(disk), false, telling()).get(0);

        assertEquals(DiskModels.Source.MEASURED, first.source(), first.account());
        assertEquals(16L << 20, written.get(written.size() - 1));
        assertEquals(DiskModels.Source.STORED, second.source(), second.account());
        assertEquals(io.device(root).id(), second.profile().measurement().orElseThrow().deviceId());
        try (Stream<Path> files = Files.list(root.resolve("rondo"))) {
            assertEquals(List.of(root.resolve(DiskModels.STORED_PROFILE)), files.toList(), "the test file is gone");
        }
    }
}
