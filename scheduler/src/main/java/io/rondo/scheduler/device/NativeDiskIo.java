package io.rondo.scheduler.device;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The JNI reader ({@code librondo_disk.so}, built from {@code src/main/native/rondo_disk.c}). Java
 * cannot tell where a file's bytes lie on the device, and SCAN orders a round by exactly that: so
 * positions come from the FIEMAP ioctl, and reads and writes use O_DIRECT so that the order Rondo
 * chooses is the order the device sees. It also reserves a file's blocks ahead of its writes
 * (fallocate), which Java cannot.
 *
 * <p>The library travels inside the jar at {@value #LIBRARY_RESOURCE}; the first use of this class
 * copies it to a temporary file and loads it. Where that fails (another OS or architecture, a jar
 * built with {@code -Dnative.skip}, a temporary folder mounted noexec), {@link #loadFailure()} says
 * why and {@link DiskIoSelector} falls back to {@link JavaDiskIo}.
 */
final class NativeDiskIo implements DiskIo {

    /** Where the library lives on the class path. */
    static final String LIBRARY_RESOURCE = "/native/linux-x86_64/librondo_disk.so";

    /** The version of the Java-to-C contract below; the C side must report the same. */
    static final int ABI_VERSION = 2;

    /** {@link DiskIo#ALIGNMENT}, restated so that {@code javac -h} hands it to the C code. */
    static final int NATIVE_ALIGNMENT = DiskIo.ALIGNMENT;

    /** posix_fadvise advice codes, as {@code javac -h} hands them to the C code. */
    static final int FADV_NORMAL = 0;
    static final int FADV_SEQUENTIAL = 1;
    static final int FADV_RANDOM = 2;
    static final int FADV_WILLNEED = 3;
    static final int FADV_DONTNEED = 4;
    static final int FADV_NOREUSE = 5;

    private static final String LOAD_FAILURE = load();

    private final BlockDevices devices = new BlockDevices(BlockDevices.SYS_DEV_BLOCK);

    /** Why the library did not load, or null if it did. */
    static String loadFailure() {
        return LOAD_FAILURE;
    }

    @Override
    public String kind() {
        return "native";
    }

    @Override
    public String fallbackReason() {
        return null;
    }

    @Override
    public boolean directIo() {
        return true;
    }

    @Override
    public boolean physicalPositions() {
        return true;
    }

    @Override
    public OpenFile open(Path file) throws IOException {
        return open(file, false);
    }

    @Override
    public WritableFile openForWriting(Path file) throws IOException {
        return open(file, true);
    }

    private static NativeOpenFile open(Path file, boolean writable) throws IOException {
        if (LOAD_FAILURE != null) {
            throw new IOException("open " + file + ": the native disk reader is not loaded (" + LOAD_FAILURE + ")");
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            attributes = null; // open(2) below says what is wrong, in the kernel's words
        }
        if (attributes != null && attributes.isOther()) {
            // A FIFO would block open(2) until a writer came; nothing but a regular file is wanted.
            throw new IOException("open " + file + ": not a regular file (a device, FIFO or socket)");
        }
        int fd = open0(nativePath(file), file.toString(), writable);
        return new NativeOpenFile(file, fd, writable);
    }

    @Override
    public DeviceInfo device(Path path) throws IOException {
        return devices.of(path);
    }

    /** Maps advice onto the codes above. */
    static int adviceCode(OpenFile.Advice advice) {
        return switch (advice) {
            case NORMAL -> FADV_NORMAL;
            case SEQUENTIAL -> FADV_SEQUENTIAL;
            case RANDOM -> FADV_RANDOM;
            case WILLNEED -> FADV_WILLNEED;
            case DONTNEED -> FADV_DONTNEED;
            case NOREUSE -> FADV_NOREUSE;
        };
    }

    /** The path's bytes as the JDK itself hands them to the kernel ({@code sun.jnu.encoding}). */
    private static byte[] nativePath(Path file) {
        String encoding = System.getProperty("sun.jnu.encoding");
        Charset charset = encoding != null && Charset.isSupported(encoding)
            ? Charset.forName(encoding) : Charset.defaultCharset();
        return file.toString().getBytes(charset);
    }

    private static String load() {
        String os = System.getProperty("os.name", "?");
        String arch = System.getProperty("os.arch", "?");
        if (!os.equals("Linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            return "no native library for " + os + "/" + arch + ": it is built for Linux x86-64 only";
        }
        try (InputStream in = NativeDiskIo.class.getResourceAsStream(LIBRARY_RESOURCE)) {
            if (in == null) {
                return LIBRARY_RESOURCE + " is not on the class path (was it built with -Dnative.skip?)";
            }
            Path copy = Files.createTempFile("librondo_disk", ".so");
            copy.toFile().deleteOnExit();
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            System.load(copy.toAbsolutePath().toString());
            int abi = abiVersion0();
            if (abi != ABI_VERSION) {
                return "librondo_disk.so speaks ABI version " + abi + ", this code expects " + ABI_VERSION;
            }
            return null;
        } catch (IOException | LinkageError | SecurityException e) {
            return "cannot load " + LIBRARY_RESOURCE + ": " + e;
        }
    }

    // The C side (rondo_disk.c). Every failure throws IOException with the path, the operation and
    // strerror(errno); bad arguments throw IllegalArgumentException before any memory is touched.
    // The path strings are for messages only.

    static native int abiVersion0();

    /**
     * open(2) with O_DIRECT | O_CLOEXEC and O_RDONLY, or O_RDWR | O_CREAT (mode 0644 less the
     * umask) if {@code writable}; refuses anything but a regular file.
     */
    static native int open0(byte[] nativePath, String path, boolean writable) throws IOException;

    static native void close0(int fd, String path) throws IOException;

    /** pread(2) of {@code length} bytes at {@code offset} into {@code dst} from {@code position}; fewer at EOF. */
    static native int pread0(int fd, ByteBuffer dst, int position, int length, long offset, String path)
        throws IOException;

    /** fstat(2): {size, mtime in ns}. */
    static native long[] fstat0(int fd, String path) throws IOException;

    /** FIEMAP with FIEMAP_FLAG_SYNC: {logical, physical, length, flags} per extent, in logical order. */
    static native long[] fiemap0(int fd, String path) throws IOException;

    static native void fadvise0(int fd, long offset, long length, int advice, String path) throws IOException;

    /** pwrite(2) of all {@code length} bytes of {@code src} from {@code position} at {@code offset}. */
    static native void pwrite0(int fd, ByteBuffer src, int position, int length, long offset, String path)
        throws IOException;

    static native void fdatasync0(int fd, String path) throws IOException;

    /** fallocate(2) with FALLOC_FL_KEEP_SIZE; false if the file system does not support it (EOPNOTSUPP). */
    static native boolean fallocate0(int fd, long offset, long length, String path) throws IOException;

    static native void ftruncate0(int fd, long size, String path) throws IOException;
}
