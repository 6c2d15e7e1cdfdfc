package io.rondo.server.cli;

import io.rondo.scheduler.device.DeviceInfo;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.DiskProfiler;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.ByteSizes;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rondo profile DIR}: XTREAM's disk profiler (papers/000 Section 2.3) on the device behind
 * DIR. Prints throughput against IO size and the fitted service time, and writes a disk profile
 * that {@code --disk-profile} and {@code storage.diskProfile} take, with a chart of the shape of
 * papers/000 Figure 3 beside it.
 */
@Command(name = "profile",
    description = {
        "Measure the disk behind DIR as XTREAM's profiler does (papers/000 Section 2.3): write a test file, then "
            + "time O_DIRECT reads of 4 KiB to 8 MiB at random positions in it; fit the service time "
            + "t(s) = a + s/R; write a disk profile (JSON, the format of config/disks/*.json) and a chart of "
            + "throughput against IO size (PNG, like papers/000 Figure 3). The test file is deleted at the end, "
            + "on failure and on Ctrl-C.",
        "",
        "Use the profile with 'rondo serve --disk-profile FILE', 'rondo simulate --disk-profile FILE', "
            + "'rondo load --disk-profile FILE' or storage.diskProfile in config/rondo.yaml. 'rondo serve' measures "
            + "each disk by itself at its first start (storage.diskProfile: measured, the default) and keeps the "
            + "profile in the storage root as rondo/disk-profile.json."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class ProfileCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "A directory on the disk to profile.")
    private Path dir;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "256M",
        description = "Size of the test file, at least 16M; less if free space is short, keeping 10%% free "
            + "(default: ${DEFAULT-VALUE}).")
    private String size;

    @Option(names = "--out", paramLabel = "FILE",
        description = "The profile to write (default: DIR/profile.json); the chart goes beside it as .png.")
    private Path out;

    @Option(names = "--max-io", paramLabel = "SIZE", defaultValue = "8M",
        description = "The largest IO size timed, a power of two from 8K (default: ${DEFAULT-VALUE}).")
    private String maxIo;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    private boolean quiet;

    @Override
    public Integer call() {
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException("DIR " + dir + " does not exist: give a directory on the disk to "
                + "profile");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("DIR " + dir + " is a file, not a directory: give a directory on the "
                + "disk to profile");
        }
        long requested = ByteSizes.parse(size, "--size");
        if (requested < DiskProfiler.MIN_FILE_BYTES) {
            throw new IllegalArgumentException("--size must be at least 16M, so that reads of every size land at "
                + "many places; was " + size);
        }
        long maxIoBytes = ByteSizes.parse(maxIo, "--max-io");
        if (maxIoBytes < 2 * DiskProfiler.MIN_IO_BYTES || maxIoBytes > 1L << 30 || Long.bitCount(maxIoBytes) != 1) {
            throw new IllegalArgumentException("--max-io must be a power of two from 8K to 1G, was " + maxIo);
        }
        Path json = out != null ? out : dir.resolve("profile.json");
        Path png = chartPath(json);
        PrintWriter stdout = spec.commandLine().getOut();
        try {
            long fileBytes = DiskProfiler.fileBytes(dir, requested);
            DiskIo io = DiskIo.best();
            DeviceInfo device = io.device(dir);
            stdout.printf(Locale.ROOT, "Profiling %s (%s, %s) through %s: a %s test file%s, random O_DIRECT reads and "
                    + "writes (each made durable) of 4 KiB to %s, %s reader%n", device.name(), device.id(),
                device.rotational() ? "rotational" : "non-rotational", dir, ByteSizes.format(fileBytes),
                fileBytes < requested ? " (all the free space allows)" : "",
                ByteSizes.format(Math.min(maxIoBytes, fileBytes)), io.kind());
            stdout.flush();
            DiskProfiler.Result result;
            try (ProfileBars bars = new ProfileBars(quiet, () -> false)) {
                NanoClock clock = SystemClocks.nanoClock();
                result = new DiskProfiler(io, (int) maxIoBytes, clock.nanoTime(), DiskProfiler.Effort.FULL, clock,
                    SystemClocks.epochClock()).run(dir, requested, bars);
            }
            print(result, stdout);
            Path parent = json.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            result.writeProfile(json);
            DiskProfile.load(json);
            ProfileChart.write(result, png);
            stdout.printf(Locale.ROOT, "%nwrote %s and %s%nuse it with rondo serve --disk-profile %s, or as "
                + "storage.diskProfile in config/rondo.yaml%n", json, png, json);
            stdout.flush();
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException("profile " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The chart's path: the profile's, with {@code .png} for its extension. */
    static Path chartPath(Path json) {
        String name = json.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return json.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".png");
    }

    /** A profile's throughput, stored in MB/s (10^6 bytes a second, its file format), for people in MiB/s. */
    static double mibps(double megabytesPerSecond) {
        return megabytesPerSecond * 1e6 / ByteSizes.MIB;
    }

    private static void print(DiskProfiler.Result result, PrintWriter out) {
        out.printf(Locale.ROOT, "%n%9s %6s %10s %10s %10s %9s %9s %10s%n", "IO size", "reads", "min MiB/s",
            "mean MiB/s", "max MiB/s", "mean ms", "max ms", "access ms");
        printRows(result.rows(), out);
        DiskProfiler.Fit fit = result.fit();
        out.printf(Locale.ROOT, "%nFit: t(s) = a + s/R, a = %.3f ms (mean access), R = %.1f MiB/s (transfer); "
                + "a_max = %.3f ms bounds every read measured%n", fit.accessMs(),
            fit.transferBytesPerSecond() / ByteSizes.MIB, fit.accessMaxMs());
        result.writes().ifPresent(writes -> {
            out.printf(Locale.ROOT, "%n%9s %6s %10s %10s %10s %9s %9s %10s%n", "IO size", "writes", "min MiB/s",
                "mean MiB/s", "max MiB/s", "mean ms", "max ms", "access ms");
            printRows(result.writeRows(), out);
            out.printf(Locale.ROOT, "%nWrites (each with fdatasync): a = %.3f ms, R = %.1f MiB/s; a_max = %.3f ms "
                + "bounds every write measured%n", writes.accessMs(), writes.transferBytesPerSecond() / ByteSizes.MIB,
                writes.accessMaxMs());
        });
        out.printf(Locale.ROOT, "%d reads and %d writes in %.1f s, the test files written and deleted%n",
            result.rows().stream().mapToInt(DiskProfiler.Row::reads).sum(),
            result.writeRows().stream().mapToInt(DiskProfiler.Row::reads).sum(), result.seconds());
    }

    private static void printRows(List<DiskProfiler.Row> rows, PrintWriter out) {
        for (DiskProfiler.Row row : rows) {
            out.printf(Locale.ROOT, "%9s %6d %10.1f %10.1f %10.1f %9.3f %9.3f %10.3f%n",
                ByteSizes.format(row.ioBytes()), row.reads(), mibps(row.minMBps()), mibps(row.meanMBps()),
                mibps(row.maxMBps()), row.meanMs(), row.maxMs(), row.meanAccessMs());
        }
    }
}
