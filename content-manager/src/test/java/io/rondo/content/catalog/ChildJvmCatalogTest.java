package io.rondo.content.catalog;

import io.rondo.content.model.MediaObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The catalog across processes: what a child JVM put is there for the next process, whether the
 * child closed the catalog and exited or was killed (SIGKILL) in the middle of its puts.
 */
class ChildJvmCatalogTest {

    @TempDir
    Path data;

    @Test
    void whatAChildPutIsThereAfterItExits() throws Exception {
        assertEquals(0, runChild("30").exitValue());
        assertEquals(0, runChild("50").exitValue());
        try (ChronicleCatalog catalog = ChronicleCatalog.open(data, Clock.systemUTC())) {
            assertFalse(catalog.recovered(), "the children closed the catalog");
            assertEquals(50, catalog.size());
            assertAllWhole(catalog, 50);
        }
    }

    @Test
    void aChildKilledWhilePuttingLosesNoObjectWhosePutReturned() throws Exception {
        Random random = new Random(17);
        int lastSeen = -1;
        for (int kill = 0; kill < 3; kill++) {
            lastSeen = Math.max(lastSeen, killChildAfter(5 + random.nextInt(60)));
            try (ChronicleCatalog catalog = ChronicleCatalog.open(data, Clock.systemUTC())) {
                assertTrue(catalog.recovered(), "a killed child leaves the catalog to recover");
                int size = catalog.size();
                // The child runs on while the test reads its output and kills it, so it may have done
                // more puts than the test saw; none that it reported may be missing.
                assertTrue(size >= lastSeen + 1, "every put that returned is there: " + size
                    + " objects, the child reported " + (lastSeen + 1) + " puts returned");
                assertAllWhole(catalog, size);
            }
        }
        assertTrue(lastSeen > 10, "the children got puts done: " + lastSeen);
    }

    /** Every object of the numbered series from 0 to {@code count - 1} is there, whole, with its own id. */
    private static void assertAllWhole(ChronicleCatalog catalog, int count) {
        Set<Long> ids = new HashSet<>();
        List<MediaObject> all = catalog.all();
        assertEquals(count, all.size());
        for (int i = 0; i < count; i++) {
            MediaObject object = all.get(i);
            assertEquals(CatalogObjects.numbered(object.id(), i), object, "object " + i + " is whole");
            assertTrue(ids.add(object.id()), "ids are unique: " + object.id());
        }
    }

    private Process runChild(String count) throws Exception {
        Process child = startChild(count);
        try (BufferedReader out = outputOf(child)) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                report(line);
            }
        }
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child exits");
        return child;
    }

    /** Starts a child that puts until killed, kills it once {@code puts} puts have returned, returns the last. */
    private int killChildAfter(int puts) throws Exception {
        Process child = startChild(null);
        int lastSeen = -1;
        int seen = 0;
        try (BufferedReader out = outputOf(child)) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("put ")) {
                    lastSeen = Integer.parseInt(line.substring("put ".length()));
                    if (++seen == puts) {
                        child.destroyForcibly();
                        break;
                    }
                } else {
                    report(line);
                }
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
        }
        assertEquals(puts, seen, "the child put as many as asked before it was killed");
        return lastSeen;
    }

    private Process startChild(String count) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle")) {
                command.add(argument);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CatalogChild.class.getName(),
            data.toString()));
        if (count != null) {
            command.add(count);
        }
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static BufferedReader outputOf(Process child) {
        return new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    }

    private static void report(String line) {
        if (line.startsWith("opened ")) {
            System.out.println("child JVM: " + line);
        } else if (!line.startsWith("put ") && !line.startsWith("SLF4J")) {
            System.err.println("child JVM: " + line);
        }
    }
}
