package io.rondo.server.config;

import io.rondo.content.ingest.PlacementPolicy;
import io.rondo.scheduler.disk.DiskProfile;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where Rondo keeps its files and how it models and fills its disks, {@code storage:} in
 * {@code rondo.yaml}. Each key's default is the constant beside it.
 *
 * @param roots       {@code storage.roots}: the folders Rondo stores and reads files in, relative to the working
 *                    directory unless absolute
 * @param diskProfile {@code storage.diskProfile}: the disk model, {@value #MEASURED_DISK_PROFILE}, a built-in
 *                    profile's name or a profile file, as written
 * @param placement   {@code storage.placement}: where new objects go
 */
public record StorageSettings(List<String> roots, String diskProfile, PlacementPolicy placement) {

    /** {@code storage.roots}. */
    public static final List<String> DEFAULT_ROOTS = List.of("data");
    /**
     * {@code storage.diskProfile}'s word for the profile measured on each disk's own device, at the
     * first start on it, and stored in its storage root's {@code rondo/} folder.
     */
    public static final String MEASURED_DISK_PROFILE = "measured";
    /** {@code storage.diskProfile}. */
    public static final String DEFAULT_DISK_PROFILE = MEASURED_DISK_PROFILE;
    /** {@code storage.placement}. */
    public static final PlacementPolicy DEFAULT_PLACEMENT = PlacementPolicy.STRIPED;

    /** Checks every value once; a named disk profile is looked up (a profile file is read). */
    public StorageSettings {
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("storage.roots needs at least one folder");
        }
        for (String root : roots) {
            if (root == null || root.isBlank()) {
                throw new IllegalArgumentException("storage.roots has an empty entry");
            }
        }
        roots = List.copyOf(roots);
        Objects.requireNonNull(placement, "storage.placement");
        if (!MEASURED_DISK_PROFILE.equals(Objects.requireNonNull(diskProfile, "storage.diskProfile"))) {
            try {
                DiskProfile.resolve(diskProfile);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("storage.diskProfile must be measured, a built-in profile or a "
                    + "profile file: " + e.getMessage(), e);
            }
        }
    }

    /** The section as written: what it says, the defaults for the rest. */
    static StorageSettings read(Section written) {
        return new StorageSettings(Settings.orDefault(written.roots(), DEFAULT_ROOTS),
            Settings.orDefault(written.diskProfile(), DEFAULT_DISK_PROFILE), placement(written.placement()));
    }

    private static PlacementPolicy placement(String value) {
        if (value == null) {
            return DEFAULT_PLACEMENT;
        }
        return switch (value) {
            case "striped" -> PlacementPolicy.STRIPED;
            case "most-free" -> PlacementPolicy.MOST_FREE;
            default -> throw new IllegalArgumentException("storage.placement must be striped or most-free, was '"
                + value + "'");
        };
    }

    /** {@code storage.roots}, as paths relative to the working directory unless absolute. */
    public List<Path> rootPaths() {
        return roots.stream().map(Path::of).toList();
    }

    /** Whether {@code storage.roots} is the default, {@code [data]}. */
    public boolean defaultRoots() {
        return roots.equals(DEFAULT_ROOTS);
    }

    /** Whether {@code storage.diskProfile} is {@value #MEASURED_DISK_PROFILE}: each disk's own profile. */
    public boolean measuredDiskProfile() {
        return MEASURED_DISK_PROFILE.equals(diskProfile);
    }

    /** {@code storage:} as the file writes it; a key left out is null. */
    record Section(List<String> roots, String diskProfile, String placement) {
        static final Section EMPTY = new Section(null, null, null);
    }
}
