package io.rondo.server.http;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.content.ingest.IngestException;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskRuntime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * A small real library in a temporary folder, read through a real {@link DiskRuntime} on the
 * paper's disk model: what the handler tests answer from, so that every body they check went
 * through the disks' schedulers as a served one does.
 */
final class TestLibrary implements AutoCloseable {

    private final Path folder;
    private final Library library;
    private final DiskRuntime disks;
    private int sources;

    private TestLibrary(Path folder, Library library, DiskRuntime disks) {
        this.folder = folder;
        this.library = library;
        this.disks = disks;
    }

    /** A new, empty library under {@code folder}; its disks are not started. */
    static TestLibrary open(Path folder) throws IOException {
        Library library = Library.open(RondoConfig.defaults(), folder.resolve("data"));
        DiskRuntime disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk())
                .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock()));
        return new TestLibrary(folder, library, disks);
    }

    /** Starts the disks' agents; returns this. */
    TestLibrary start() {
        disks.start();
        return this;
    }

    /** Ingests {@code size} random bytes as {@code name}; returns the bytes. */
    byte[] ingest(String name, int size, long seed) throws IOException, IngestException {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        ingest(name, bytes);
        return bytes;
    }

    /** Ingests {@code bytes} as {@code name}. */
    MediaObject ingest(String name, byte[] bytes) throws IOException, IngestException {
        Path source = Files.write(folder.resolve("source-" + sources++), bytes);
        return library.ingest().ingest(new IngestRequest(source, name, null, 0), copied -> { });
    }

    /** The object now named {@code name}. */
    MediaObject object(String name) {
        return library.store().catalog().byName(name).orElseThrow();
    }

    Library library() {
        return library;
    }

    DiskRuntime disks() {
        return disks;
    }

    @Override
    public void close() {
        disks.close();
        library.close();
    }
}
