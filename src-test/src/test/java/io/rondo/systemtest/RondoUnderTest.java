package io.rondo.systemtest;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.StreamClient;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.config.ConnectionSettings;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.content.Library;
import io.rondo.server.content.PlayerFiles;
import io.rondo.server.http.HttpServer;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A whole Rondo on loopback, wired as {@code rondo serve} wires it: a library in a temporary data
 * folder, the demo clip and two documents ingested, emulated paper disks, the stream port and the
 * HTTP port on 127.0.0.1 with ports the kernel picks.
 */
final class RondoUnderTest implements AutoCloseable {

    /** A client that can take the demo clip comfortably. */
    static final ClientProfile PROFILE = new ClientProfile(4L << 20, 8L << 20);
    /** The clip's name in the catalog, as OPEN names it. */
    static final String CLIP = "/clip.webm";
    /** A discrete object of known random bytes. */
    static final String DOC = "/docs/table.bin";
    /** A small text object. */
    static final String NOTE = "/docs/note.txt";

    final Library library;
    /** The whole server, as {@code rondo serve} builds it. */
    final RondoServer server;
    final DiskRuntime disks;
    final StreamServer streams;
    final HttpServer http;
    final byte[] clip;
    final byte[] doc;
    final byte[] note;
    final MediaObject docObject;
    /** The HTTP port's connection limit, with the count of the connections it holds. */
    final ConnectionLimit httpLimit;
    /** The stream port's connection limit, with the count of the connections it holds. */
    final ConnectionLimit streamLimit;
    /** The count of blocking calls on event loops before this server started. */
    private final int blockingMark;

    private RondoUnderTest(Library library, RondoServer server, byte[] clip, byte[] doc, byte[] note,
                           MediaObject docObject, int blockingMark) {
        this.blockingMark = blockingMark;
        this.server = server;
        this.httpLimit = server.httpLimit();
        this.streamLimit = server.streamLimit();
        this.library = library;
        this.disks = server.disks();
        this.streams = server.streams();
        this.http = server.http();
        this.clip = clip;
        this.doc = doc;
        this.note = note;
        this.docObject = docObject;
    }

    /** Ingests the test library under {@code temp} and starts serving it. */
    static RondoUnderTest start(Path temp, int docBytes) throws Exception {
        return start(temp, docBytes, AdmissionConfig.defaults());
    }

    /**
     * Ingests the test library under {@code temp}, installs the web player as {@code rondo serve}
     * does, and starts serving it with these admission settings.
     */
    static RondoUnderTest start(Path temp, int docBytes, AdmissionConfig admission) throws Exception {
        return start(temp, docBytes, admission, HttpSettings.defaults(), StreamSettings.defaults(),
            Function.identity());
    }

    /** Ingests the test library under {@code temp} and serves it with these {@code http:} settings. */
    static RondoUnderTest start(Path temp, int docBytes, HttpSettings http) throws Exception {
        return start(temp, docBytes, AdmissionConfig.defaults(), http, StreamSettings.defaults(), Function.identity());
    }

    /** As {@link #start(Path, int, AdmissionConfig)}, with the stream protocol's limits and deadlines. */
    static RondoUnderTest start(Path temp, int docBytes, AdmissionConfig admission, StreamSettings streamSettings)
        throws Exception {
        return start(temp, docBytes, admission, HttpSettings.defaults(), streamSettings, Function.identity());
    }

    /**
     * As {@link #start(Path, int, AdmissionConfig)}, with each disk's device wrapped by
     * {@code device}: a test's faults between the executor and the disk.
     */
    static RondoUnderTest start(Path temp, int docBytes, AdmissionConfig admission,
                                Function<BlockDevice, BlockDevice> device) throws Exception {
        return start(temp, docBytes, admission, HttpSettings.defaults(), StreamSettings.defaults(), device);
    }

    /**
     * Ingests the test library under {@code temp} and serves it holding no more connections on the
     * HTTP and stream ports than {@code connections} allows.
     */
    static RondoUnderTest start(Path temp, int docBytes, ConnectionSettings connections) throws Exception {
        return start(temp, docBytes, AdmissionConfig.defaults(), HttpSettings.defaults(), StreamSettings.defaults(),
            Function.identity(), connections);
    }

    private static RondoUnderTest start(Path temp, int docBytes, AdmissionConfig admission, HttpSettings httpSettings,
                                        StreamSettings streamSettings, Function<BlockDevice, BlockDevice> device)
        throws Exception {
        int unlimited = Integer.MAX_VALUE;
        return start(temp, docBytes, admission, httpSettings, streamSettings, device,
            new ConnectionSettings(unlimited, unlimited, unlimited, unlimited, unlimited, unlimited));
    }

    private static RondoUnderTest start(Path temp, int docBytes, AdmissionConfig admission, HttpSettings httpSettings,
                                        StreamSettings streamSettings, Function<BlockDevice, BlockDevice> device,
                                        ConnectionSettings connections) throws Exception {
        NettyLeakWatch.install();
        BlockingCallWatch.install();
        int blockingMark = BlockingCallWatch.count();
        Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        PlayerFiles.install(library);
        byte[] clip;
        try (InputStream in = RondoUnderTest.class.getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            clip = in.readAllBytes();
        }
        Path clipFile = Files.write(temp.resolve("clip.webm"), clip);
        clip = storedCopy(clipFile);
        library.ingest().ingest(new IngestRequest(clipFile, CLIP, null, 0), c -> { });
        byte[] doc = new byte[docBytes];
        new Random(7).nextBytes(doc);
        MediaObject docObject = library.ingest().ingest(new IngestRequest(Files.write(temp.resolve("doc.bin"), doc),
            DOC, null, 0), c -> { });
        byte[] note = "a note, read through the disks\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        library.ingest().ingest(new IngestRequest(Files.write(temp.resolve("note.txt"), note), NOTE, null, 0),
            c -> { });
        RondoServer server = RondoServer.start(new RondoContext()
            .library(library)
            .model(DiskProfile.paperDisk())
            .emulate(true)
            .device(device)
            .admission(admission)
            .httpSettings(httpSettings)
            .streamSettings(streamSettings)
            .connections(connections));
        return new RondoUnderTest(library, server, clip, doc, note, docObject, blockingMark);
    }

    /** Ingests a test resource (a path on the classpath) as {@code name} while the server runs. */
    MediaObject ingest(String resource, String name, Path temp) throws Exception {
        Path copy = temp.resolve(name.substring(name.lastIndexOf('/') + 1));
        try (InputStream in = RondoUnderTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return library.ingest().ingest(new IngestRequest(copy, name, null, 0), c -> { });
    }

    /** An OPEN of the clip from its start, with {@link #PROFILE}. */
    static io.rondo.client.protocol.Open openClip() {
        return new io.rondo.client.protocol.Open(CLIP.substring(1), 0, PROFILE);
    }

    int httpPort() {
        return http.address().getPort();
    }

    /** What ingest stores for the clip {@code file} (remuxed, one fragment a round): what streams carry. */
    static byte[] storedCopy(Path file) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (StoredMedia media = ((Preparation.Continuous) MediaIndexers.prepare(file, 1_000_000_000L)).media()) {
            media.writeAll(java.nio.channels.Channels.newChannel(out));
        }
        return out.toByteArray();
    }

    /** The program's path on the PATH, if it is installed. */
    static Optional<Path> onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .filter(dir -> !dir.isEmpty())
            .map(dir -> Path.of(dir, program))
            .filter(Files::isExecutable)
            .findFirst();
    }

    int streamPort() {
        return streams.address().getPort();
    }

    /** How many fragments the clip has: what a stream of it plays from its start to END. */
    int clipFragments() {
        return library.directory().find(CLIP).orElseThrow().media().fragments().size();
    }

    /** Plays the clip to its END with the protocol's Java client: the init segment and every fragment, in order. */
    byte[] play() throws IOException {
        try (StreamClient client = StreamClient.connect("127.0.0.1", streamPort())) {
            Accept accept = client.open(CLIP, 0, PROFILE);
            ByteArrayOutputStream media = new ByteArrayOutputStream();
            append(media, accept.initSegment());
            long index = 0;
            for (Data data = client.nextData(); data != null; data = client.nextData()) {
                assertEquals(index++, data.fragmentIndex(), "fragments in order");
                append(media, data.payload());
            }
            return media.toByteArray();
        } catch (io.rondo.client.StreamRejectedException e) {
            throw new UncheckedIOException(new IOException("the clip was refused: " + e.getMessage(), e));
        }
    }

    private static void append(ByteArrayOutputStream out, ByteBuffer bytes) {
        ByteBuffer view = bytes.duplicate();
        byte[] copy = new byte[view.remaining()];
        view.get(copy);
        out.write(copy, 0, copy.length);
    }

    /**
     * Waits, at most {@code limit}, until no stream is active or admitted and every buffer is back
     * in the pool with no reservation left; then asserts it.
     */
    void awaitQuiet(Duration limit) {
        await("every stream's admission and buffers are released").atMost(limit).untilAsserted(() -> {
            assertEquals(0, streams.activeStreams(), "no stream is still served");
            assertEquals(0, streams.admission().admittedStreams(), "every admission was released");
            assertEquals(0, disks.buffers().outstanding(), "every buffer went back to the pool");
            assertEquals(0, disks.buffers().reservedBytes(), "every stream's buffer reservation ended");
        });
    }

    /** Stops the server and closes its library; fails if an event loop blocked while it ran. */
    @Override
    public void close() {
        server.close();
        library.close();
        BlockingCallWatch.assertNoneSince(blockingMark);
    }

    /** A timeout for a socket read that must not hang a test. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
}
