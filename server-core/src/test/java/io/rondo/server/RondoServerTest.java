package io.rondo.server;

import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.ThreadingMode;
import io.rondo.scheduler.exec.Waiter;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A whole server built from a Context: what it refuses to start without, and the invoker mode. */
class RondoServerTest {

    @TempDir
    Path temp;

    @Test
    void aContextWithoutALibraryOrDiskModelsSaysWhatIsMissing() throws Exception {
        IllegalStateException noLibrary = assertThrows(IllegalStateException.class,
            () -> new RondoContext().model(DiskProfile.paperDisk()).conclude());
        assertEquals("no library: set library(...)", noLibrary.getMessage());
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc())) {
            IllegalStateException noModels = assertThrows(IllegalStateException.class,
                () -> RondoServer.start(new RondoContext().library(library)));
            assertEquals("no disk models: set model(...) or models(...)", noModels.getMessage());
        }
    }

    /**
     * In the invoker mode the server starts no agent thread of its own (no generator, disk, round
     * clock or sender thread): a GET arrives on HTTP's event loop and is answered only as the test
     * steps the agents, the emulated disk moving the stepped clock by the model's time.
     */
    @Test
    @Timeout(60)
    void inTheInvokerModeTheCallersStepsServeAGetAndNoAgentHasAThread() throws Exception {
        CachedNanoClock nanos = new CachedNanoClock();
        nanos.update(10_000_000_000L);
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc())) {
            Path source = Files.writeString(temp.resolve("note.txt"), "read only when the caller steps the disks\n");
            library.ingest().ingest(new IngestRequest(source, "/note.txt", null, 0), copied -> { });
            try (RondoServer server = RondoServer.start(new RondoContext()
                     .library(library)
                     .model(DiskProfile.paperDisk())
                     .emulate(true)
                     .nanoClock(nanos)
                     .epochClock(new CachedEpochClock())
                     .threadingMode(ThreadingMode.INVOKER)
                     .waiter(Waiter.advancing(nanos)))) {
                List<String> agents = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .filter(name -> name.startsWith("rondo-disk-") || name.equals("rondo-round-clock")
                        || name.equals("rondo-generator") || name.equals("rondo-sender"))
                    .toList();
                assertEquals(List.of(), agents, "no agent runs on a thread of its own");

                URI uri = URI.create(RondoServer.url("http", server.http().address()) + "note.txt");
                CompletableFuture<HttpResponse<String>> get = HttpClient.newHttpClient()
                    .sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
                long steps = 0;
                while (!get.isDone()) {
                    steps += server.invoke() > 0 ? 1 : 0;
                    Thread.onSpinWait();
                }

                assertEquals(200, get.join().statusCode());
                assertEquals("read only when the caller steps the disks\n", get.join().body());
                assertTrue(steps > 0, "the read was done in the caller's steps");
                assertTrue(nanos.nanoTime() > 10_000_000_000L, "the emulated disk moved the stepped clock");
            }
        }
    }
}
