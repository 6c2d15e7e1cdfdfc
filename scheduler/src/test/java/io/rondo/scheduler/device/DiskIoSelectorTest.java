package io.rondo.scheduler.device;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Which reader the process gets: the choice itself, with the property value and the load outcome
 * handed in (so the once-per-JVM cache does not matter), and the one line said on a fall back.
 */
class DiskIoSelectorTest {

    private final List<String> warnings = new ArrayList<>();
    private final Consumer<String> err = warnings::add;

    private static final Supplier<String> MUST_NOT_LOAD = () -> fail("-Drondo.native=false must not load the library");

    private String said() {
        return warnings.stream().map(line -> line + System.lineSeparator()).collect(Collectors.joining());
    }

    @Test
    void nativeFalseChoosesTheJavaReaderWithoutLoadingTheLibrary() {
        DiskIo chosen = DiskIoSelector.choose("false", MUST_NOT_LOAD, err);
        assertEquals("java", chosen.kind());
        assertEquals(DiskIoSelector.DISABLED, chosen.fallbackReason());
        assertEquals("rondo: native disk reader unavailable (disabled by -Drondo.native=false); using the pure-Java"
            + " reader: logical offsets as positions" + System.lineSeparator(), said());
        assertEquals("java", DiskIoSelector.choose(" FALSE ", MUST_NOT_LOAD, err).kind());
    }

    @Test
    void aLibraryThatWillNotLoadChoosesTheJavaReaderAndSaysWhy() {
        DiskIo chosen = DiskIoSelector.choose(null, () -> "no native library for Mac OS X/aarch64", err);
        assertEquals("java", chosen.kind());
        assertEquals("no native library for Mac OS X/aarch64", chosen.fallbackReason());
        assertEquals("rondo: native disk reader unavailable (no native library for Mac OS X/aarch64); using the"
            + " pure-Java reader: logical offsets as positions" + System.lineSeparator(), said());
        assertEquals("java", DiskIoSelector.choose("true", () -> "broken", err).kind(),
            "asking for the native reader cannot make a broken library load");
    }

    @Test
    void aLoadedLibraryIsChosenSilently() {
        for (String property : new String[] {null, "true", "", "yes"}) {
            DiskIo chosen = DiskIoSelector.choose(property, () -> null, err);
            assertEquals("native", chosen.kind(), "with -Drondo.native=" + property);
            assertNull(chosen.fallbackReason());
        }
        assertEquals("", said());
    }

    @Test
    void theProcessChoosesOnce() {
        DiskIo best = DiskIo.best();
        assertSame(best, DiskIo.best());
        boolean disabled = "false".equalsIgnoreCase(System.getProperty(DiskIo.NATIVE_PROPERTY, "").trim());
        boolean nativeExpected = !disabled && NativeDiskIo.loadFailure() == null;
        assertEquals(nativeExpected ? "native" : "java", best.kind(),
            "load failure: " + NativeDiskIo.loadFailure());
        assertFalse(nativeExpected && best.fallbackReason() != null);
    }
}
