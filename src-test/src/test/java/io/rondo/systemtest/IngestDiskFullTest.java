package io.rondo.systemtest;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.MediaObject;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.launch.RondoJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code rondo ingest} onto a disk that fills up: the data folder is a real file system of a few
 * MiB beyond what the catalog and two objects take (a tmpfs, where the test may mount one). A
 * document and a video larger than the space left are refused with a message that says the disk
 * is full; nothing of them is left behind (no file in the folder that was not there before), the
 * catalog opens and lists exactly the objects it had, and once space is there again the same
 * ingest succeeds.
 */
class IngestDiskFullTest {

    private static final List<String> BEFORE = List.of("/before/doc.bin", "/before/clip.webm");
    private static final String CLIP_RESOURCE = "/io/rondo/systemtest/media/clock-20s.webm";
    private static final long ROOM_BYTES = 256 << 10;

    @TempDir
    Path temp;

    @Test
    void anIngestThatFillsTheDiskIsRefusedAndLeavesTheLibraryAsItWas() throws Exception {
        Path data = temp.resolve("data");
        try (SmallFilesystem disk = SmallFilesystem.mount(data, 256L << 20)) {
            assumeTrue(disk != null, "mounting a tmpfs needs root or a password-less sudo");
            Path doc = write("doc.bin", 100 << 10);
            Path clip = temp.resolve("clip.webm");
            try (InputStream in = getClass().getResourceAsStream(CLIP_RESOURCE)) {
                Files.copy(in, clip);
            }
            try (Library library = Library.open(RondoConfig.defaults(), data, SystemClocks.utc())) {
                library.ingest().ingest(new IngestRequest(doc, BEFORE.get(0), null, 0), c -> { });
                library.ingest().ingest(new IngestRequest(clip, BEFORE.get(1), null, 0), c -> { });
            }
            disk.resize(disk.usedBytes() + ROOM_BYTES);
            Set<String> files = files(data);
            Path config = Files.writeString(temp.resolve("rondo.yaml"), "storage:\n  diskProfile: nerjes-1999\n");
            Path large = write("large.bin", 4 << 20);

            Run document = ingest(config, data, large, "/after/large.bin");
            Run video = ingest(config, data, clip, "/after/clip.webm");
            System.out.printf("diskfull: %d KiB free; a %d KiB document: exit %d, %s; a %d KiB video: exit %d, %s%n",
                disk.freeBytes() >> 10, Files.size(large) >> 10, document.exit, document.err.strip(),
                Files.size(clip) >> 10, video.exit, video.err.strip());
            Set<String> after = files(data);
            List<String> listed;
            try (Library library = Library.open(RondoConfig.defaults(), data, SystemClocks.utc())) {
                listed = library.store().catalog().all().stream().map(MediaObject::name)
                    .filter(name -> !name.startsWith("/player/")).sorted().toList();
            }
            assertAll(
                () -> assertRefusedForSpace(document, data),
                () -> assertRefusedForSpace(video, data),
                () -> assertEquals(files, after, "the files in the data folder, but its catalog's"),
                () -> assertEquals(BEFORE.stream().sorted().toList(), listed, "the objects the catalog lists"));

            disk.resize(disk.usedBytes() + (16L << 20));
            Run again = ingest(config, data, large, "/after/large.bin");
            assertEquals(0, again.exit, "with space again, the same ingest succeeds: " + again.err);
        }
    }

    // A data folder on a disk too small for the catalog's file (84 MB, allocated when it is created): the first
    // ingest says why it cannot open the catalog.
    @Test
    void aDiskTooSmallForTheCatalogIsNamedWithTheReason() throws Exception {
        Path data = temp.resolve("data");
        try (SmallFilesystem disk = SmallFilesystem.mount(data, 8L << 20)) {
            assumeTrue(disk != null, "mounting a tmpfs needs root or a password-less sudo");
            Path config = Files.writeString(temp.resolve("rondo.yaml"), "storage:\n  diskProfile: nerjes-1999\n");
            Run run = ingest(config, data, write("doc.bin", 1 << 10), "/doc.bin");
            System.out.printf("diskfull: an 8 MiB data folder: exit %d, %s%n", run.exit, run.err.strip());
            assertRefusedForSpace(run, data);
        }
    }

    private static void assertRefusedForSpace(Run run, Path data) {
        assertNotEquals(0, run.exit, "the ingest failed: " + run.out);
        assertTrue(run.err.contains("space") || run.err.contains("full"), "it says the disk is full: " + run.err);
        assertTrue(run.err.contains(data.toString()), "it names the disk: " + run.err);
        assertFalse(run.err.contains("\tat ") || run.err.contains("Exception in thread"), "no stack trace: "
            + run.err);
    }

    private record Run(int exit, String out, String err) {
    }

    /** Runs {@code rondo ingest} in a JVM of its own, as a person would. */
    private Run ingest(Path config, Path data, Path file, String name) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(RondoJvm.thisClassPath(List.of("-Xmx256m")).command(List.of()));
        command.addAll(List.of("ingest", "--quiet", "--config", config.toString(), "--data", data.toString(), "--as",
            name, file.toString()));
        Path out = temp.resolve("ingest.out");
        Path err = temp.resolve("ingest.err");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("rondo ingest did not finish in 120 s");
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    }

    /** The files under the data folder, relative to it, but the catalog's, which change as it is opened. */
    private static Set<String> files(Path data) throws IOException {
        try (Stream<Path> all = Files.walk(data)) {
            return all.filter(Files::isRegularFile).map(path -> data.relativize(path).toString())
                .filter(path -> !path.startsWith("rondo/catalog/")).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private Path write(String name, int size) throws IOException {
        byte[] bytes = new byte[size];
        new Random(3).nextBytes(bytes);
        return Files.write(temp.resolve(name), bytes);
    }
}
