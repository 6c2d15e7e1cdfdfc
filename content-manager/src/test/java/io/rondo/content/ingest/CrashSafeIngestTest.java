package io.rondo.content.ingest;

import io.rondo.content.catalog.ChronicleCatalog;
import io.rondo.content.model.MediaObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A crash at any point of an ingest leaves the whole object or nothing: a child JVM ingesting
 * files is killed ({@code destroyForcibly}, SIGKILL) at a random moment, and afterwards every
 * catalogued object is whole, every ingest the child saw finish is catalogued, and after recovery
 * no stray file is left.
 */
class CrashSafeIngestTest {

    private static final int FILES = 60;

    @TempDir
    Path temp;

    @Test
    void killingAnIngestingJvmLeavesEachObjectWholeOrAbsent() throws Exception {
        Path inputs = Files.createDirectories(temp.resolve("inputs"));
        Random random = new Random(5);
        for (int i = 0; i < FILES; i++) {
            byte[] bytes = new byte[1_000_000 + random.nextInt(2_000_000)];
            random.nextBytes(bytes);
            Files.write(inputs.resolve("f" + i + ".bin"), bytes);
        }
        Path data = Files.createDirectories(temp.resolve("data"));
        int lastSeen = -1;
        for (int kill = 0; kill < 3 && lastSeen < FILES - 1; kill++) {
            lastSeen = Math.max(lastSeen, runChildAndKill(data, inputs, 3 + random.nextInt(5), random.nextInt(30)));
            checkWholeOrAbsent(data, inputs, lastSeen);
        }
        assertTrue(lastSeen >= 3, "the child got some ingests done before each kill: " + lastSeen);
    }

    /** Runs the child until it reports {@code afterIngests} more ingests, waits {@code delayMs}, kills it. */
    private int runChildAndKill(Path data, Path inputs, int afterIngests, int delayMs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("-D")) {
                command.add(argument);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), IngestCrashChild.class.getName(),
            data.toString(), inputs.toString(), Integer.toString(FILES)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        int lastSeen = -1;
        int seen = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("ingested ")) {
                    lastSeen = Integer.parseInt(line.substring("ingested ".length()));
                    if (++seen == afterIngests) {
                        // Not a wait for anything: the kill is meant to land at a random moment of the next ingest.
                        Thread.sleep(delayMs);
                        child.destroyForcibly();
                        break;
                    }
                } else if (!line.equals("ready")) {
                    System.err.println("child: " + line);
                }
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child ended");
        }
        return lastSeen;
    }

    private static void checkWholeOrAbsent(Path data, Path inputs, int lastSeen) throws Exception {
        try (ChronicleCatalog catalog = ChronicleCatalog.open(data.resolve("rondo"), Clock.systemUTC())) {
            ContentStore store = new ContentStore(catalog, List.of(new StorageDisk("d0", data)));
            new IngestService(store, PlacementPolicy.STRIPED, 1_000_000_000L, Clock.systemUTC()).recover();
            for (int i = 0; i <= lastSeen; i++) {
                assertTrue(catalog.byName("/f" + i + ".bin").isPresent(), "/f" + i + ".bin finished, so it is there");
            }
            for (MediaObject object : catalog.all()) {
                byte[] stored = Files.readAllBytes(store.pathOf(object.placement().files().get(0)));
                byte[] original = Files.readAllBytes(inputs.resolve(object.name().substring(1)));
                assertEquals(original.length, stored.length, object.name() + " is whole");
                String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(stored), 0, 16);
                assertEquals("\"" + sha + "\"", object.etag(), object.name() + " has the bytes its ETag promises");
            }
            assertEquals(catalog.size(), countFiles(data.resolve("rondo/objects")), "no file without an entry");
            assertFalse(countFiles(data.resolve("rondo/tmp")) > 0, "no ingest left half-done");
        }
    }

    private static long countFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).count();
        }
    }
}
