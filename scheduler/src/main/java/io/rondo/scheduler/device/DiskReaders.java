package io.rondo.scheduler.device;

/**
 * Each disk reader by name, whichever {@link DiskIo#best()} would choose, and the bare JNI call:
 * what the benchmarks set side by side. Rondo itself reads through {@link DiskIo#best()}.
 */
public final class DiskReaders {

    private DiskReaders() {
    }

    /** The JNI reader ({@code librondo_disk.so}); its reads fail if the library did not load. */
    public static DiskIo nativeReader() {
        return new NativeDiskIo();
    }

    /** The pure-Java reader, saying {@code why} it rather than the native one is in use. */
    public static DiskIo javaReader(String why) {
        return new JavaDiskIo(why);
    }

    /** Why the native library did not load, or null if it did. */
    public static String nativeLoadFailure() {
        return NativeDiskIo.loadFailure();
    }

    /**
     * One JNI call that does nothing but return the library's ABI version: the round trip every
     * native read pays on top of its system call.
     */
    public static int emptyNativeCall() {
        return NativeDiskIo.abiVersion0();
    }
}
