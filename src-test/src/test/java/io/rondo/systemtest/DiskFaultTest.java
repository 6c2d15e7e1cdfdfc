package io.rondo.systemtest;

import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.Open;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.admission.AdmissionConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A disk that fails every read of one object (EIO, as bad sectors under its files would): that
 * object's stream is ended with READ_FAILED, while the streams of another object on the same disk,
 * running at the same time, receive every fragment byte for byte, and HTTP still answers for the
 * other objects.
 */
class DiskFaultTest {

    private static final String BROKEN = "/broken.webm";
    private static final int VIEWERS = 3;

    @TempDir
    Path temp;

    private RondoUnderTest rondo;

    @AfterEach
    void stop() {
        if (rondo != null) {
            rondo.close();
        }
    }

    @Test
    void anObjectWhoseReadsFailEndsItsOwnStreamAndNoOtherRequest() throws Exception {
        FailingFilesDevice.Faults faults = new FailingFilesDevice.Faults();
        rondo = RondoUnderTest.start(temp, 1 << 20, AdmissionConfig.defaults(), faults::wrap);
        MediaObject broken = rondo.ingest("/io/rondo/systemtest/media/clock-20s.webm", BROKEN, temp);
        for (StoredFile file : broken.placement().files()) {
            faults.fail(rondo.library.store().pathOf(file));
        }
        assertEquals(1, rondo.disks.diskNames().size(), "the objects share one disk");

        ExecutorService players = Executors.newFixedThreadPool(VIEWERS);
        try {
            List<Future<byte[]>> played = new ArrayList<>();
            for (int i = 0; i < VIEWERS; i++) {
                played.add(players.submit(rondo::play));
            }
            ErrorFrame error = open(BROKEN);
            Answer brokenAnswer = answer(BROKEN);
            byte[] doc = get(RondoUnderTest.DOC);
            byte[] note = get(RondoUnderTest.NOTE);
            for (Future<byte[]> stream : played) {
                assertArrayEquals(rondo.clip, stream.get(60, TimeUnit.SECONDS),
                    "a stream of another object on the failing disk carried every fragment");
            }
            System.out.printf("fault: %s answered %s; HTTP GET %s answered %s; %d reads failed; "
                    + "%d other streams played whole; the disk's IO errors: %d%n", BROKEN, error, BROKEN,
                brokenAnswer, faults.failedReads(), VIEWERS,
                rondo.disks.executor(rondo.disks.diskNames().get(0)).ioErrors());
            assertEquals(ErrorCode.READ_FAILED.code(), error.code(), "the broken object's stream: " + error);
            assertTrue(faults.failedReads() > 0, "the broken object's reads reached the failing disk");
            assertArrayEquals(rondo.doc, doc, "HTTP of another object on the failing disk");
            assertArrayEquals(rondo.note, note, "HTTP of another object on the failing disk");
            assertTrue(brokenAnswer.status() / 100 != 2 || brokenAnswer.bodyBytes() < broken.size(),
                "the broken object's GET is not answered whole as if nothing failed: " + brokenAnswer);
        } finally {
            players.shutdownNow();
        }
        rondo.awaitQuiet(java.time.Duration.ofSeconds(10));
    }

    // The disk starts failing under an object that has streamed before, whose init segment the server keeps in
    // memory: the next stream of it reads only fragments, and those failing must end it with READ_FAILED too,
    // not play it on with its fragments missing.
    @Test
    void anObjectThatFailsAfterItStreamedEndsItsNextStreamWithReadFailed() throws Exception {
        FailingFilesDevice.Faults faults = new FailingFilesDevice.Faults();
        rondo = RondoUnderTest.start(temp, 1024, AdmissionConfig.defaults(), faults::wrap);
        assertArrayEquals(rondo.clip, rondo.play(), "the clip streams whole while its disk is healthy");
        MediaObject clip = rondo.library.store().catalog().byName(RondoUnderTest.CLIP).orElseThrow();
        for (StoredFile file : clip.placement().files()) {
            faults.fail(rondo.library.store().pathOf(file));
        }
        List<String> frames = new ArrayList<>();
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(new Open(RondoUnderTest.CLIP.substring(1), 0, RondoUnderTest.PROFILE));
            for (Frame frame = next(client, frames); frame != null; frame = next(client, frames)) {
                frames.add(frame.getClass().getSimpleName() + (frame instanceof ErrorFrame e ? " " + e.code() : ""));
            }
        }
        System.out.printf("fault: after the disk failed under %s, its next stream was answered %s; %d reads "
            + "failed%n", RondoUnderTest.CLIP, frames, faults.failedReads());
        assertEquals("ErrorFrame " + ErrorCode.READ_FAILED.code(), frames.get(frames.size() - 1),
            "the stream ends with READ_FAILED: " + frames);
        rondo.awaitQuiet(java.time.Duration.ofSeconds(10));
    }

    /** The next frame, or null at the connection's end; a wait of 5 s with no frame is noted in {@code seen}. */
    private static Frame next(RawStreamConnection client, List<String> seen) throws IOException {
        for (int waits = 0; waits < 6; waits++) {
            try {
                return client.next();
            } catch (java.net.SocketTimeoutException e) {
                seen.add("nothing for 5 s");
            }
        }
        return null;
    }

    /** OPENs {@code name}, whose reads fail; returns the ERROR that ends it, after which the server must close. */
    private ErrorFrame open(String name) throws IOException {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(new Open(name.substring(1), 0, RondoUnderTest.PROFILE));
            Frame answer = client.next();
            while (answer != null && !(answer instanceof ErrorFrame)) {
                answer = client.next();
            }
            ErrorFrame error = assertInstanceOf(ErrorFrame.class, answer, "the broken object's stream is ended");
            assertNull(client.next(), "after ERROR the server closes the connection");
            return error;
        }
    }

    private HttpURLConnection connect(String name) throws IOException {
        HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + rondo.httpPort() + name).toURL()
            .openConnection();
        http.setConnectTimeout(5_000);
        http.setReadTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
        return http;
    }

    private byte[] get(String name) throws IOException {
        HttpURLConnection http = connect(name);
        assertEquals(200, http.getResponseCode(), "GET " + name);
        try (InputStream in = http.getInputStream()) {
            return in.readAllBytes();
        }
    }

    /** How a GET was answered: its status (-1: the connection broke first) and the body's bytes. */
    private record Answer(int status, long bodyBytes) {
    }

    /**
     * How a GET of {@code name} is answered. A server that finds the disk failing after it sent the
     * head can only cut the body short of its Content-Length.
     */
    private Answer answer(String name) {
        try {
            HttpURLConnection http = connect(name);
            int status = http.getResponseCode();
            try (InputStream in = status < 400 ? http.getInputStream() : http.getErrorStream()) {
                return new Answer(status, in == null ? 0 : in.readAllBytes().length);
            }
        } catch (IOException e) {
            return new Answer(-1, 0);
        }
    }
}
