package io.rondo.systemtest;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Pause;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.Report;
import io.rondo.client.protocol.Seek;
import io.rondo.content.ingest.Directory;
import io.rondo.content.model.MediaIndex;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.server.config.StreamSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stream port's limits and deadlines, and its answers to SEEK and CLOSE, as a client on a
 * socket meets them: a client that falls silent, one that never sends a whole OPEN, one that
 * declares a frame far larger than any a client sends, one that seeks several times at once.
 * The server runs with a 1 s client timeout and open timeout, so no test waits the defaults.
 */
class StreamLimitsTest {

    private static final Duration QUIET = Duration.ofSeconds(10);
    private static final long TIMEOUT_MS = 1000;

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;
    private static MediaIndex media;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, 1024, AdmissionConfig.defaults(),
            StreamSettings.defaults().withTimeouts(TIMEOUT_MS, TIMEOUT_MS));
        try (Directory.Lease lease = rondo.library.directory().open(RondoUnderTest.CLIP.substring(1)).orElseThrow()) {
            media = lease.object().media();
        }
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    @AfterEach
    void everythingIsGivenBack() {
        rondo.awaitQuiet(QUIET);
    }

    /** The next frame that is not DATA already on its way. */
    private static Frame afterData(RawStreamConnection client) throws IOException {
        Frame frame = client.next();
        while (frame instanceof Data) {
            frame = client.next();
        }
        return frame;
    }

    private static void assertError(ErrorCode expected, Frame answer) throws IOException {
        ErrorFrame error = assertInstanceOf(ErrorFrame.class, answer, "an ERROR, not " + answer);
        assertEquals(expected.code(), error.code(), error.toString());
    }

    // A viewer who pauses and then falls silent (no REPORT either) is told CLIENT_TIMEOUT and let go, so its
    // admission and buffers serve other viewers rather than a vanished one.
    @Test
    void aPausedStreamWhoseClientFallsSilentIsEndedWithClientTimeout() throws Exception {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(RondoUnderTest.openClip());
            assertInstanceOf(Accept.class, client.next());
            client.send(new Pause());
            long pausedNs = System.nanoTime();
            assertError(ErrorCode.CLIENT_TIMEOUT, afterData(client));
            assertTrue(System.nanoTime() - pausedNs >= (TIMEOUT_MS - 50) * 1_000_000L, "not before the timeout");
            assertNull(client.next(), "then the server closes the connection");
        }
    }

    // A paused viewer that goes on REPORTing keeps its stream, however long the pause, and CLOSE then ends it
    // with END.
    @Test
    void aPausedStreamThatReportsLivesPastTheTimeout() throws Exception {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(RondoUnderTest.openClip());
            assertInstanceOf(Accept.class, client.next());
            client.send(new Pause());
            for (int i = 0; i < 10; i++) {
                Thread.sleep(TIMEOUT_MS / 4);
                client.send(new Report(0, 0, 0));
            }
            client.send(new Close());
            assertInstanceOf(End.class, afterData(client), "2.5 timeouts later the stream still lives");
        }
    }

    // The protocol's CLOSE: DATA in flight, then END, then the server closes the connection.
    @Test
    void closeIsAnsweredWithEnd() throws Exception {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(RondoUnderTest.openClip());
            assertInstanceOf(Accept.class, client.next());
            assertInstanceOf(Data.class, client.next());
            client.send(new Close());
            assertInstanceOf(End.class, afterData(client));
            assertNull(client.next(), "after END the server closes the connection");
        }
    }

    // A connection that connects and says nothing, or half a frame header, is closed after the open timeout.
    @Test
    void aConnectionThatNeverSendsAWholeOpenIsClosed() throws Exception {
        try (RawStreamConnection silent = RawStreamConnection.connect(rondo.streamPort(), 0);
             RawStreamConnection half = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            half.send(Arrays.copyOf(FrameCodec.encode(RondoUnderTest.openClip()).array(), 5));
            for (RawStreamConnection client : List.of(silent, half)) {
                assertError(ErrorCode.CLIENT_TIMEOUT, client.next());
                assertNull(client.next(), "then closed");
            }
        }
    }

    // A client refused for a missing object may send another OPEN on the same connection.
    @Test
    void aRefusedClientMayOpenAgain() throws Exception {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(new Open("no/such.webm", 0, RondoUnderTest.PROFILE));
            assertInstanceOf(Reject.class, client.next());
            client.send(RondoUnderTest.openClip());
            assertInstanceOf(Accept.class, client.next());
            client.send(new Close());
            assertInstanceOf(End.class, afterData(client));
        }
    }

    // A header declaring a payload far larger than any client frame (an OPEN of 16 MiB - 1) is refused at once,
    // before its bytes are waited for or buffered; so is an OPEN just past the limit, while one within it is read.
    @Test
    void aClientFrameLargerThanTheLimitIsRefusedAtItsHeader() throws Exception {
        try (RawStreamConnection huge = RawStreamConnection.connect(rondo.streamPort(), 0);
             RawStreamConnection over = RawStreamConnection.connect(rondo.streamPort(), 0);
             RawStreamConnection within = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            huge.send(ByteBuffer.allocate(1024).put(new byte[] {0x52, 1, 1, 0}).putInt((16 << 20) - 1).array());
            assertError(ErrorCode.FRAME_TOO_LARGE, huge.next());
            assertNull(huge.next());

            byte[] tooLong = openNamed(StreamSettings.DEFAULT_MAX_CLIENT_FRAME - 34 + 1);
            assertEquals(StreamSettings.DEFAULT_MAX_CLIENT_FRAME + 1, tooLong.length);
            over.send(Arrays.copyOf(tooLong, FrameCodec.HEADER_LENGTH));
            assertError(ErrorCode.FRAME_TOO_LARGE, over.next());

            byte[] longest = openNamed(StreamSettings.DEFAULT_MAX_CLIENT_FRAME - 34);
            within.send(longest);
            assertInstanceOf(Reject.class, within.next(), "the longest OPEN allowed is read and answered");
        }
    }

    /** An OPEN whose object name is {@code nameBytes} long: a frame of 34 bytes more. */
    private static byte[] openNamed(int nameBytes) {
        ByteArrayOutputStream name = new ByteArrayOutputStream();
        for (int i = 0; i < nameBytes; i++) {
            name.write('a');
        }
        return FrameCodec.encode(new Open(name.toString(java.nio.charset.StandardCharsets.US_ASCII), 0,
            RondoUnderTest.PROFILE)).array();
    }

    // A player that counts DISCONTINUITY flags (as the protocol asks) gets one answer per SEEK, in order, each
    // the first fragment of its own position, however quickly the SEEKs come; then the stream plays on.
    @Test
    void backToBackSeeksAreEachAnsweredInOrder() throws Exception {
        long[] positions = {media.durationNs() / 4, media.durationNs() / 2, media.durationNs() * 3 / 4};
        assertTrue(media.keyframeFragmentAt(positions[2]) > media.keyframeFragmentAt(positions[0]), "room to seek");
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(RondoUnderTest.openClip());
            assertInstanceOf(Accept.class, client.next());
            assertInstanceOf(Data.class, client.next());
            ByteArrayOutputStream seeks = new ByteArrayOutputStream();
            for (long position : positions) {
                seeks.writeBytes(FrameCodec.encode(new Seek(position)).array());
            }
            client.send(seeks.toByteArray());
            List<Data> answers = new ArrayList<>();
            Data last = null;
            Runnable stopReporting = client.reportEvery(Duration.ofMillis(TIMEOUT_MS / 4));
            try {
                for (Frame frame = client.next(); !(frame instanceof End); frame = client.next()) {
                    Data data = assertInstanceOf(Data.class, frame, "DATA until END");
                    if (data.discontinuity()) {
                        answers.add(data);
                    } else if (answers.size() == positions.length) {
                        assertEquals(last.fragmentIndex() + 1, data.fragmentIndex(), "after the last SEEK, in order");
                    }
                    last = data;
                }
            } finally {
                stopReporting.run();
            }
            assertEquals(positions.length, answers.size(), "one DISCONTINUITY per SEEK: " + answers);
            for (int i = 0; i < positions.length; i++) {
                assertEquals(media.keyframeFragmentAt(positions[i]), answers.get(i).fragmentIndex(),
                    "SEEK " + i + " is answered by its own position's first fragment");
            }
            assertEquals(media.fragments().size() - 1, last.fragmentIndex(), "then on to the last fragment");
        }
    }

    // A client that sends SEEKs far faster than it can be answered is told so, rather than queued without end.
    @Test
    void moreSeeksWaitingThanTheLimitAreAnUnexpectedFrame() throws Exception {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(RondoUnderTest.openClip());
            assertInstanceOf(Accept.class, client.next());
            ByteArrayOutputStream seeks = new ByteArrayOutputStream();
            for (int i = 0; i <= StreamSettings.DEFAULT_MAX_UNANSWERED_SEEKS; i++) {
                seeks.writeBytes(FrameCodec.encode(new Seek(media.durationNs() / 2)).array());
            }
            client.send(seeks.toByteArray());
            assertError(ErrorCode.UNEXPECTED_FRAME, afterData(client));
        }
    }

    // A SEEK past the end is answered by END alone, also when it waits behind another SEEK.
    @Test
    void aSeekPastTheEndIsAnsweredByEndAlone() throws Exception {
        try (RawStreamConnection alone = RawStreamConnection.connect(rondo.streamPort(), 0);
             RawStreamConnection behind = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            for (RawStreamConnection client : List.of(alone, behind)) {
                client.send(RondoUnderTest.openClip());
                assertInstanceOf(Accept.class, client.next());
                assertInstanceOf(Data.class, client.next());
            }
            alone.send(new Seek(media.durationNs() + 1_000_000_000L));
            ByteArrayOutputStream seeks = new ByteArrayOutputStream();
            seeks.writeBytes(FrameCodec.encode(new Seek(media.durationNs() / 2)).array());
            seeks.writeBytes(FrameCodec.encode(new Seek(media.durationNs())).array());
            behind.send(seeks.toByteArray());

            assertEquals(0, discontinuitiesBeforeEnd(alone), "no fragment answers a SEEK past the end");
            assertEquals(1, discontinuitiesBeforeEnd(behind), "the first SEEK's fragment, then END");
            assertNull(alone.next());
            assertNull(behind.next());
        }
    }

    private static int discontinuitiesBeforeEnd(RawStreamConnection client) throws IOException {
        int discontinuities = 0;
        for (Frame frame = client.next(); !(frame instanceof End); frame = client.next()) {
            assertFalse(frame == null || frame instanceof ErrorFrame, "END, not " + frame);
            if (((Data) frame).discontinuity()) {
                discontinuities++;
            }
        }
        return discontinuities;
    }
}
