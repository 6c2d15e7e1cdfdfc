package io.rondo.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The launcher sizes Rondo's JVM for the machine, so no client can push the server to the machine's
 * memory: an eighth of it as heap and a quarter as direct memory, within bounds, unless
 * RONDO_MEMORY or RONDO_JAVA_OPTS say otherwise. The flags are read from a stand-in {@code java}
 * that prints them; the last test runs the real JVM and asks it what it got.
 */
class LauncherMemoryTest {

    private static final long MIB = 1L << 20;
    private static final Path ROOT = Path.of(System.getProperty("rondo.config.dir", "config")).toAbsolutePath()
        .getParent();
    private static final Path LAUNCHER = ROOT.resolve("rondo");

    @TempDir
    Path temp;

    /** What the launcher ran: its exit status, the arguments the stand-in java got, and what it printed. */
    private record Launch(int exit, List<String> args, String printed) {

        String flag(String prefix) {
            return args.stream().filter(arg -> arg.startsWith(prefix)).reduce((first, last) -> last)
                .map(arg -> arg.substring(prefix.length())).orElse(null);
        }
    }

    private Launch launch(Map<String, String> env, String... args) throws Exception {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\nfor arg in \"$@\"; do printf '%s\\n' \"$arg\"; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put("RONDO_NO_BUILD", "1");
        builder.environment().remove("RONDO_MEMORY");
        builder.environment().remove("RONDO_JAVA_OPTS");
        builder.environment().putAll(env);
        Process process = builder.start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        return new Launch(process.exitValue(), printed.lines().toList(), printed);
    }

    @Test
    void aTwoGigabyteMachineGivesAQuarterGigabyteHeapAndHalfAGigabyteOfDirectMemory() throws Exception {
        Launch launch = launch(Map.of("RONDO_MEMORY", "2G"), "serve");
        assertEquals(0, launch.exit(), launch.printed());
        assertEquals("256m", launch.flag("-Xmx"));
        assertEquals("512m", launch.flag("-XX:MaxDirectMemorySize="));
        assertEquals(String.valueOf(2L << 30), launch.flag("-Drondo.memory.sizedFor="));
        assertEquals("serve", launch.args().get(launch.args().size() - 1));
    }

    @Test
    void aLargeMachineIsCappedSoTheHeapStaysCollectable() throws Exception {
        Launch launch = launch(Map.of("RONDO_MEMORY", "256G"), "serve");
        assertEquals("8192m", launch.flag("-Xmx"));
        assertEquals("32768m", launch.flag("-XX:MaxDirectMemorySize="));
    }

    @Test
    void withoutRondoMemoryTheMachinesOwnMemoryIsUsed() throws Exception {
        long total = memTotalBytes();
        Launch launch = launch(Map.of(), "doctor");
        long expectedHeap = Math.min(8L << 30, Math.max(256 * MIB, total / 8));
        assertEquals(expectedHeap >> 20, Long.parseLong(launch.flag("-Xmx").replace("m", "")), launch.printed());
        assertEquals("this machine", launch.flag("-Drondo.memory.source="));
    }

    // RONDO_JAVA_OPTS comes later on the command line, and the JVM takes the last of a flag given twice.
    @Test
    void rondoJavaOptsOverrideTheSizing() throws Exception {
        Launch launch = launch(Map.of("RONDO_MEMORY", "2G", "RONDO_JAVA_OPTS", "-Xmx300m -XX:MaxDirectMemorySize=1g"),
            "serve");
        assertEquals("300m", launch.flag("-Xmx"));
        assertEquals("1g", launch.flag("-XX:MaxDirectMemorySize="));
    }

    @Test
    void aBadRondoMemoryIsRefusedWithTheReason() throws Exception {
        Launch banana = launch(Map.of("RONDO_MEMORY", "banana"), "serve");
        assertEquals(1, banana.exit());
        assertTrue(banana.printed().contains("RONDO_MEMORY must be a size such as 4G or 512M, was 'banana'"),
            banana.printed());
        Launch tiny = launch(Map.of("RONDO_MEMORY", "100M"), "serve");
        assertEquals(1, tiny.exit());
        assertTrue(tiny.printed().contains("RONDO_MEMORY must be at least 1G"), tiny.printed());
    }

    // The bench is a client: its servers are sized by their own JVMs' flags.
    @Test
    void theBenchClientIsNotSized() throws Exception {
        Launch launch = launch(Map.of("RONDO_MEMORY", "2G"), "bench", "--help");
        assertEquals(null, launch.flag("-Xmx"));
        assertFalse(launch.printed().contains("MaxDirectMemorySize"), launch.printed());
    }

    // The real JVM: rondo doctor reports the heap, the direct memory and the budget inside them.
    @Test
    void theServerSeesTheMemoryTheLauncherGaveIt() throws Exception {
        assumeTrue(Files.isRegularFile(ROOT.resolve("server-core/target/rondo.jar")), "rondo.jar is built");
        ProcessBuilder builder = new ProcessBuilder("bash", LAUNCHER.toString(), "doctor", "--json",
            temp.resolve("root").toString()).redirectErrorStream(false);
        builder.environment().put("RONDO_NO_BUILD", "1");
        builder.environment().put("RONDO_MEMORY", "2G");
        builder.environment().remove("RONDO_JAVA_OPTS");
        Files.createDirectories(temp.resolve("root"));
        Process process = builder.redirectError(ProcessBuilder.Redirect.DISCARD).start();
        JsonNode report = new ObjectMapper().readTree(process.getInputStream());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        JsonNode memory = report.get("memory");
        long heap = memory.get("heapBytes").asLong();
        assertTrue(heap > 200 * MIB && heap <= 256 * MIB, "heap " + heap);
        assertEquals(512 * MIB, memory.get("directBytes").asLong());
        assertEquals(256 * MIB, memory.get("buffersCeilingBytes").asLong(), "auto: half the direct memory");
        assertEquals(64 * MIB, memory.get("hotObjectsBytes").asLong(), "auto: an eighth of it");
        assertEquals("RONDO_MEMORY", memory.get("sizedBy").asText());
    }

    private static long memTotalBytes() throws IOException {
        Matcher matcher = Pattern.compile("MemTotal:\\s+(\\d+) kB").matcher(Files.readString(Path.of("/proc/meminfo")));
        assertTrue(matcher.find());
        long total = Long.parseLong(matcher.group(1)) * 1024;
        for (Path limit : List.of(Path.of("/sys/fs/cgroup/memory.max"),
                Path.of("/sys/fs/cgroup/memory/memory.limit_in_bytes"))) {
            if (Files.isReadable(limit)) {
                String value = Files.readString(limit).strip();
                if (value.matches("\\d+") && Long.parseLong(value) < total) {
                    total = Long.parseLong(value);
                }
            }
        }
        return total;
    }
}
