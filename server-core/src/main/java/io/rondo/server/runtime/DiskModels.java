package io.rondo.server.runtime;

import io.rondo.content.ingest.StorageDisk;
import io.rondo.scheduler.device.DeviceInfo;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.DiskProfiler;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.config.ByteSizes;
import io.rondo.server.config.StorageSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The disk model is the disk's: which model each disk's scheduler plans with and admission
 * control judges by (papers/000 Section 2.3: a profile measured on the device itself).
 *
 * <p>With {@code measured}, a disk's profile is the one stored in its storage root
 * ({@value #STORED_PROFILE}) while it describes the same device: the same {@code MAJ:MIN} and the
 * same size. At the first start on a disk, or on a device that changed, the device is profiled
 * as {@code rondo profile} does, with less effort ({@link DiskProfiler.Effort#QUICK}, a smaller
 * test file on a solid-state device), and the profile is stored for the next start. Where
 * profiling fails (a file system that refuses O_DIRECT, no free space) the disk gets the paper's
 * disk and the account says why and what to do. An emulated disk keeps the paper's disk: it
 * exists to show the schedule on a slow virtual disk, and a measured profile describes the real
 * device. A profile named by configuration or {@code --disk-profile} goes to every disk as it is.
 *
 * <p>The profiler and the device lookup are injected, so that tests check the choices without
 * profiling anything.
 */
public final class DiskModels {

    /** Where a disk's measured profile is stored, under its storage root. */
    public static final String STORED_PROFILE = "rondo/disk-profile.json";
    /** The test file a first start profiles a solid-state device with: about a second's work. */
    public static final long QUICK_FILE_BYTES = 64L << 20;
    /**
     * The test file for a spinning device, as large as {@code rondo profile}'s: its reads must
     * spread over enough of the platter for seeks to show.
     */
    public static final long QUICK_ROTATIONAL_FILE_BYTES = 256L << 20;
    /** The largest IO a first start times: past a few MiB the fitted line holds. */
    public static final int QUICK_MAX_IO_BYTES = 4 << 20;

    private final Devices devices;
    private final Profiler profiler;

    /**
     * @param devices  finds the device behind a storage root
     * @param profiler profiles the device behind a folder
     */
    public DiskModels(Devices devices, Profiler profiler) {
        this.devices = devices;
        this.profiler = profiler;
    }

    /** Models for real devices: {@code io} finds them and the quick profiler measures them. */
    public static DiskModels real(DiskIo io) {
        return new DiskModels(io::device, (dir, device, listener) -> new DiskProfiler(io, QUICK_MAX_IO_BYTES,
            System.nanoTime(), DiskProfiler.Effort.QUICK)
            .run(dir, device.rotational() ? QUICK_ROTATIONAL_FILE_BYTES : QUICK_FILE_BYTES, listener));
    }

    /**
     * Each disk's model.
     *
     * @param setting  {@code measured}, a built-in profile's name or a profile file
     * @param origin   where the setting came from, for the account: {@code configured}, {@code --disk-profile}
     * @param disks    the disks, each with its storage root
     * @param emulate  whether the disks are emulated: {@code measured} then means the paper's disk
     * @param listener told before a disk is profiled, and of the profile's progress
     * @return one choice per disk, in the order given
     * @throws IllegalArgumentException if {@code setting} names no profile
     * @throws UncheckedIOException     if a storage root's device cannot be found
     */
    public List<Choice> choose(String setting, String origin, List<StorageDisk> disks, boolean emulate,
                               Listener listener) {
        List<Choice> choices = new ArrayList<>();
        if (!StorageSettings.MEASURED_DISK_PROFILE.equals(setting)) {
            DiskProfile profile = DiskProfile.resolve(setting);
            for (StorageDisk disk : disks) {
                choices.add(new Choice(disk.name(), disk.root(), profile, Source.NAMED,
                    header(disk) + profile.name() + " (" + origin + ")"));
            }
            return choices;
        }
        for (StorageDisk disk : disks) {
            if (emulate) {
                choices.add(new Choice(disk.name(), disk.root(), DiskProfile.paperDisk(), Source.EMULATED,
                    header(disk) + DiskProfile.PAPER_DISK + " (emulated: --emulate times IOs on the paper's disk; "
                        + "--disk-profile chooses another)"));
            } else {
                choices.add(measured(disk, listener));
            }
        }
        return choices;
    }

    private Choice measured(StorageDisk disk, Listener listener) {
        DeviceInfo device;
        try {
            device = devices.device(disk.root());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find the device of disk " + disk.name() + " (" + disk.root()
                + "): " + e.getMessage(), e);
        }
        Path stored = disk.root().resolve(STORED_PROFILE);
        String why;
        if (!Files.exists(stored)) {
            why = "no profile is stored for it yet";
        } else {
            try {
                DiskProfile profile = DiskProfile.load(stored);
                Optional<DiskProfile.Measurement> measurement = profile.measurement();
                if (measurement.isEmpty()) {
                    why = "the stored " + stored + " is not a measured profile";
                } else if (!sameDevice(measurement.get(), device)) {
                    why = "the device changed: " + stored + " was measured on " + identity(measurement.get())
                        + ", this is " + identity(device);
                } else {
                    return new Choice(disk.name(), disk.root(), profile, Source.STORED, header(disk)
                        + "measured profile, stored " + date(measurement.get()) + ", " + figures(measurement.get()));
                }
            } catch (IllegalArgumentException e) {
                why = "the stored profile is not valid (" + e.getMessage() + ")";
            }
        }
        return profile(disk, device, stored, why, listener);
    }

    private Choice profile(StorageDisk disk, DeviceInfo device, Path stored, String why, Listener listener) {
        DiskProfiler.Result result;
        DiskProfile profile;
        try {
            Files.createDirectories(stored.getParent());
            result = profiler.profile(stored.getParent(), device, listener.profiling(disk.name(), disk.root(), why));
            profile = DiskProfile.fromJson(result.profileJson(), "measured on disk " + disk.name());
        } catch (IOException | IllegalArgumentException | UncheckedIOException e) {
            return new Choice(disk.name(), disk.root(), DiskProfile.paperDisk(), Source.FALLBACK, header(disk)
                + DiskProfile.PAPER_DISK + ", because measuring the device failed: " + e.getMessage()
                + "; name a profile with --disk-profile FILE or storage.diskProfile in rondo.yaml");
        }
        String kept;
        try {
            store(stored, result.profileJson());
            kept = "stored in " + stored;
        } catch (IOException e) {
            kept = "NOT stored (" + e.getMessage() + "), so the next start measures again";
        }
        return new Choice(disk.name(), disk.root(), profile, Source.MEASURED, header(disk) + String.format(Locale.ROOT,
            "measured profile, measured now in %.1f s and %s, %s", result.seconds(), kept,
            figures(profile.measurement().orElseThrow())));
    }

    /** Writes the profile beside where it goes, then moves it into place: a crash leaves the old one or the new. */
    private static void store(Path stored, String json) throws IOException {
        Path temporary = stored.resolveSibling(stored.getFileName() + ".tmp");
        try {
            Files.writeString(temporary, json);
            try {
                Files.move(temporary, stored, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, stored, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static boolean sameDevice(DiskProfile.Measurement measurement, DeviceInfo device) {
        return measurement.deviceId().equals(device.id()) && measurement.deviceBytes() == device.sizeBytes();
    }

    private static String identity(DiskProfile.Measurement measurement) {
        return identity(measurement.device(), measurement.deviceId(), measurement.deviceBytes());
    }

    private static String identity(DeviceInfo device) {
        return identity(device.name(), device.id(), device.sizeBytes());
    }

    private static String identity(String name, String id, long bytes) {
        return (name.isEmpty() ? "?" : name) + " (" + (id.isEmpty() ? "?" : id) + ", "
            + (bytes > 0 ? bytes + " bytes" : "size unknown") + ")";
    }

    private static String header(StorageDisk disk) {
        return "disk " + disk.name() + " (" + disk.root() + "): ";
    }

    private static String date(DiskProfile.Measurement measurement) {
        return measurement.at() == null ? "at a time it does not say"
            : measurement.at().atOffset(ZoneOffset.UTC).toLocalDate().toString();
    }

    private static String figures(DiskProfile.Measurement measurement) {
        return String.format(Locale.ROOT, "%.0f MiB/s sequential, %.3g ms access",
            measurement.transferBytesPerSecond() / ByteSizes.MIB, measurement.accessMs());
    }

    /** How a disk's model was chosen. */
    public enum Source {
        /** Named by configuration or option: a built-in profile or a file. */
        NAMED,
        /** Measured before, stored in the disk's root, and the device is the same. */
        STORED,
        /** Measured at this start, and stored. */
        MEASURED,
        /** The paper's disk, since the disk is emulated. */
        EMULATED,
        /** The paper's disk, since measuring failed. */
        FALLBACK
    }

    /**
     * One disk's model.
     *
     * @param disk    the disk's name
     * @param root    its storage root
     * @param profile the model
     * @param source  how it was chosen
     * @param account one line for people: the disk, the model and where it came from
     */
    public record Choice(String disk, Path root, DiskProfile profile, Source source, String account) {
    }

    /** Finds the device a path lives on. */
    @FunctionalInterface
    public interface Devices {

        /** The device behind {@code path}. */
        DeviceInfo device(Path path) throws IOException;
    }

    /** Profiles a device: the real profiler in a server, a fake in tests. */
    @FunctionalInterface
    public interface Profiler {

        /**
         * Profiles {@code device} through a test file in {@code dir}, telling {@code listener} how far it got.
         *
         * @throws IllegalArgumentException if {@code dir}'s file system cannot be profiled (no O_DIRECT, no space)
         * @throws IOException              if writing or reading the test file fails
         */
        DiskProfiler.Result profile(Path dir, DeviceInfo device, DiskProfiler.Listener listener) throws IOException;
    }

    /** Told when a disk is about to be profiled. */
    @FunctionalInterface
    public interface Listener {

        /** Tells nobody, and shows no progress. */
        Listener NONE = (disk, root, why) -> DiskProfiler.Listener.NONE;

        /**
         * Disk {@code disk} in {@code root} is about to be profiled, for the reason {@code why};
         * returns where the run's progress goes. The returned listener may throw to stop the run
         * (Ctrl-C): the test file is deleted, nothing is stored, and the exception comes out of
         * {@link #choose}.
         */
        DiskProfiler.Listener profiling(String disk, Path root, String why);
    }
}
