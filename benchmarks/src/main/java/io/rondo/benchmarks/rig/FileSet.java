package io.rondo.benchmarks.rig;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The discrete workload's files: {@code count} files of random bytes whose sizes are drawn from a
 * normal distribution (clamped below at {@link #MIN_BYTES}) with a fixed seed, so that every run,
 * Rondo's and nginx's alike, reads the same bytes. A folder already holding the same set (its
 * manifest says so) is used as it is.
 *
 * @param folder where the files are
 * @param names each file's name, {@code f000.bin} and on
 * @param sizes each file's size in bytes, in the same order
 */
public record FileSet(Path folder, List<String> names, long[] sizes) {

    /** The smallest file made: an object of a few bytes says little about serving documents. */
    public static final long MIN_BYTES = 1024;

    private static final String MANIFEST = "fileset.txt";

    /**
     * Makes (or finds) the set in {@code folder}.
     *
     * @param count how many files
     * @param meanBytes the sizes' mean
     * @param sdBytes the sizes' standard deviation
     * @param seed the seed of sizes and bytes
     */
    public static FileSet make(Path folder, int count, long meanBytes, long sdBytes, long seed) throws IOException {
        if (count < 1 || meanBytes < 1 || sdBytes < 0) {
            throw new IllegalArgumentException("a file set needs at least one file of a positive mean size, was "
                + count + " files of " + meanBytes + " B (sd " + sdBytes + " B)");
        }
        String identity = String.format(Locale.ROOT, "%d files, mean %d B, sd %d B, seed %d", count, meanBytes,
            sdBytes, seed);
        SplittableRandom random = new SplittableRandom(seed);
        List<String> names = new ArrayList<>(count);
        long[] sizes = new long[count];
        for (int i = 0; i < count; i++) {
            names.add(String.format(Locale.ROOT, "f%03d.bin", i));
            double drawn = meanBytes + sdBytes * gaussian(random);
            sizes[i] = Math.max(MIN_BYTES, Math.round(drawn));
        }
        FileSet set = new FileSet(folder, List.copyOf(names), sizes);
        Path manifest = folder.resolve(MANIFEST);
        if (Files.isRegularFile(manifest) && Files.readString(manifest, StandardCharsets.UTF_8).equals(identity)
            && set.complete()) {
            return set;
        }
        Files.createDirectories(folder);
        byte[] block = new byte[64 * 1024];
        for (int i = 0; i < count; i++) {
            try (OutputStream out = Files.newOutputStream(set.path(i))) {
                long left = sizes[i];
                while (left > 0) {
                    random.nextBytes(block);
                    int n = (int) Math.min(left, block.length);
                    out.write(block, 0, n);
                    left -= n;
                }
            }
        }
        Files.writeString(manifest, identity, StandardCharsets.UTF_8);
        return set;
    }

    /** How many files. */
    public int count() {
        return names.size();
    }

    /** The {@code index}-th file. */
    public Path path(int index) {
        return folder.resolve(names.get(index));
    }

    /** Every file, in order. */
    public List<Path> paths() {
        List<Path> paths = new ArrayList<>(count());
        for (int i = 0; i < count(); i++) {
            paths.add(path(i));
        }
        return paths;
    }

    /** The sizes' total. */
    public long totalBytes() {
        long total = 0;
        for (long size : sizes) {
            total += size;
        }
        return total;
    }

    private boolean complete() throws IOException {
        for (int i = 0; i < count(); i++) {
            Path path = path(i);
            if (!Files.isRegularFile(path) || Files.size(path) != sizes[i]) {
                return false;
            }
        }
        return true;
    }

    /** A standard normal draw (Box-Muller); SplittableRandom has none of its own. */
    private static double gaussian(SplittableRandom random) {
        double u = 1.0 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u)) * Math.cos(2.0 * Math.PI * v);
    }
}
