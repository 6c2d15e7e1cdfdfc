package io.rondo.systemtest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real file system of a chosen size (tmpfs) mounted on a folder, so that a test can fill a disk
 * as a user's disk fills: writes past its size fail with ENOSPC, "No space left on device". It
 * needs the right to mount: root, or a password-less {@code sudo}; where neither is there,
 * {@link #mount} answers null.
 */
final class SmallFilesystem implements AutoCloseable {

    private final Path folder;
    private final List<String> prefix;

    private SmallFilesystem(Path folder, List<String> prefix) {
        this.folder = folder;
        this.prefix = prefix;
    }

    /** Mounts a tmpfs of {@code bytes} on {@code folder} (created if missing); null if this user cannot mount. */
    static SmallFilesystem mount(Path folder, long bytes) throws IOException {
        Files.createDirectories(folder);
        for (List<String> prefix : List.of(List.<String>of(), List.of("sudo", "-n"))) {
            SmallFilesystem filesystem = new SmallFilesystem(folder, prefix);
            if (filesystem.run("mount", "-t", "tmpfs", "-o", "size=" + kib(bytes) + ",mode=0777", "tmpfs",
                folder.toString()).isEmpty()) {
                return filesystem;
            }
        }
        return null;
    }

    /** Grows or shrinks the file system to {@code bytes} (not below what its files take). */
    void resize(long bytes) throws IOException {
        String failure = run("mount", "-o", "remount,size=" + kib(bytes), folder.toString());
        if (!failure.isEmpty()) {
            throw new IOException("cannot resize the tmpfs on " + folder + ": " + failure);
        }
    }

    /** The bytes its files take. */
    long usedBytes() throws IOException {
        return Files.getFileStore(folder).getTotalSpace() - Files.getFileStore(folder).getUsableSpace();
    }

    /** The bytes left for files. */
    long freeBytes() throws IOException {
        return Files.getFileStore(folder).getUsableSpace();
    }

    private static String kib(long bytes) {
        return ((bytes + 1023) / 1024) + "k";
    }

    /** Runs a command with the prefix; returns "" if it succeeded, else what it printed. */
    private String run(String... command) throws IOException {
        List<String> line = new ArrayList<>(prefix);
        line.addAll(List.of(command));
        Process process;
        try {
            process = new ProcessBuilder(line).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "timed out";
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + line, e);
        }
        return process.exitValue() == 0 ? "" : "exit " + process.exitValue() + ": " + printed.strip();
    }

    /** Unmounts it, and everything written to it is gone. */
    @Override
    public void close() throws IOException {
        String failure = run("umount", folder.toString());
        if (!failure.isEmpty()) {
            throw new IOException("cannot unmount the tmpfs on " + folder + ": " + failure);
        }
    }
}
