package io.rondo.scheduler.device;

import org.slf4j.LoggerFactory;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Chooses the process's {@link DiskIo} once: the native reader unless {@code -Drondo.native=false}
 * or the library failed to load. Falling back changes what "position" means to SCAN, so it is said
 * once, on standard error, with the reason.
 */
final class DiskIoSelector {

    /** The one line printed on a fall back; {@code %s} is the reason. */
    static final String FALLBACK_FORMAT =
        "rondo: native disk reader unavailable (%s); using the pure-Java reader: logical offsets as positions";

    /** The reason given when {@code -Drondo.native=false} is set. */
    static final String DISABLED = "disabled by -D" + DiskIo.NATIVE_PROPERTY + "=false";

    private DiskIoSelector() {
    }

    /** The process's reader, chosen on first use. */
    static DiskIo best() {
        return Chosen.READER;
    }

    /**
     * The choice itself: the Java reader if {@code nativeProperty} is {@code false} (the native
     * library then is not even loaded) or if {@code loadFailure} gives a reason, the native one
     * otherwise. A fall back is reported to {@code err}.
     *
     * @param nativeProperty the value of {@value DiskIo#NATIVE_PROPERTY}, or null if unset
     * @param loadFailure    why the native library did not load, or null if it did
     * @param err            where to say so on a fall back: the log, but for tests
     */
    static DiskIo choose(String nativeProperty, Supplier<String> loadFailure, Consumer<String> err) {
        String reason = nativeProperty != null && nativeProperty.trim().equalsIgnoreCase("false")
            ? DISABLED : loadFailure.get();
        if (reason == null) {
            return new NativeDiskIo();
        }
        err.accept(String.format(FALLBACK_FORMAT, reason));
        return new JavaDiskIo(reason);
    }

    /** Holds the choice: made when first asked for, once per JVM. */
    private static final class Chosen {
        static final DiskIo READER = choose(System.getProperty(DiskIo.NATIVE_PROPERTY), NativeDiskIo::loadFailure,
            LoggerFactory.getLogger(DiskIoSelector.class)::warn);
    }
}
