package io.rondo.server.cli.play;

import io.rondo.client.Gap;
import io.rondo.client.StreamErrorException;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Live;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

import static io.rondo.server.cli.play.PlaybackMeterTest.ACCEPTED_NS;
import static io.rondo.server.cli.play.PlaybackMeterTest.SECOND;
import static io.rondo.server.cli.play.PlaybackMeterTest.data;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code rondo play} says, word for word, about a meter stepped by hand. */
class PlayMessagesTest {

    /** Sizes in decimal units, which the byte-unit convention forbids for byte counts. */
    private static final Pattern DECIMAL_BYTES = Pattern.compile("\\b[kMGT]B\\b");

    /** 1,000,000 bytes in two fragments, the second 0.5 s past its deadline, over 2.5 s since ACCEPT. */
    private static PlaybackMeter twoFragments() {
        PlaybackMeter meter = PlaybackMeterTest.meter();
        meter.received(data(0, SECOND, 500_000), ACCEPTED_NS + SECOND);
        meter.received(data(1, 2 * SECOND, 500_000), ACCEPTED_NS + 2 * SECOND + SECOND / 2);
        return meter;
    }

    @Test
    void aGapIsToldWithItsCauseLengthAndWhatWasSkippedAndTheSummaryCountsThem() {
        Gap none = new Gap(Instant.EPOCH, Duration.ofMillis(1_250), 4, 5, "127.0.0.1:8554 closed the connection");
        Gap two = new Gap(Instant.EPOCH, Duration.ofMillis(3_400), 9, 12, "no bytes for 10000 ms");
        assertEquals("rondo play: the connection was lost (127.0.0.1:8554 closed the connection); connected again, "
            + "the stream went on at fragment 5 after 1.3 s, nothing skipped", PlayMessages.gap(none));
        assertTrue(PlayMessages.gap(two).endsWith("at fragment 12 after 3.4 s, 2 fragments skipped"),
            PlayMessages.gap(two));
        assertEquals(", 2 reconnections (the longest 3.4 s, 2 fragments skipped)",
            PlayMessages.gaps(List.of(none, two)));
        assertEquals("", PlayMessages.gaps(List.of()), "a stream without gaps says nothing of them");
    }

    @Test
    void theProgressLineSaysPositionBufferRateGlitchesAndBytesInBinaryUnits() {
        String line = PlayMessages.progressLine(twoFragments(), null, ACCEPTED_NS + 2 * SECOND + SECOND / 2);

        assertEquals("rondo play: 2.0 s (2 fragments), buffer 0.5 s, 390.6 KiB/s, 1 glitch, 977.5 KiB", line,
            "400,000 bytes a second and 1,001,000 bytes, in powers of 1024");
    }

    @Test
    void whileTheObjectIsRecordedTheProgressLineSaysLiveAndHowFarBehindTheEdgeItIs() {
        String live = PlayMessages.progressLine(twoFragments(), new Live(5 * SECOND + SECOND / 2, 5 * SECOND, false),
            ACCEPTED_NS + 2 * SECOND + SECOND / 2);
        String ended = PlayMessages.progressLine(twoFragments(), new Live(6 * SECOND, 6 * SECOND, true),
            ACCEPTED_NS + 2 * SECOND + SECOND / 2);

        assertEquals("rondo play: 2.0 s (2 fragments), buffer 0.5 s, 390.6 KiB/s, 1 glitch, 977.5 KiB, "
            + "LIVE 3.5 s behind", live, "the media written runs to 2 s, the live edge is at 5.5 s");
        assertTrue(ended.endsWith("977.5 KiB, recording ended at 6.0 s"), ended);
    }

    @Test
    void theSummarySaysHowItEndedWhatArrivedHowFastAndTheGlitches() {
        String summary = PlayMessages.summary("the stream ended", twoFragments(), ACCEPTED_NS + 5 * SECOND);

        assertEquals("rondo play: the stream ended: 2.0 s (2 fragments), 977.5 KiB in 5.0 s (195.5 KiB/s), 1 glitch",
            summary);
    }

    @Test
    void largeStreamsAreInMebibytesAndNeverInDecimalUnits() {
        PlaybackMeter meter = new PlaybackMeter(SECOND, 8_000_000, 0, ACCEPTED_NS);
        meter.received(data(0, SECOND, 3 << 20), ACCEPTED_NS + SECOND / 2);
        meter.received(data(1, 2 * SECOND, 3 << 20), ACCEPTED_NS + SECOND);

        String line = PlayMessages.progressLine(meter, null, ACCEPTED_NS + SECOND);
        String summary = PlayMessages.summary("the stream ended", meter, ACCEPTED_NS + 4 * SECOND);

        assertEquals("rondo play: 2.0 s (2 fragments), buffer 1.5 s, 6 MiB/s, 0 glitches, 6 MiB", line);
        assertEquals("rondo play: the stream ended: 2.0 s (2 fragments), 6 MiB in 4.0 s (1.5 MiB/s), 0 glitches",
            summary);
        assertFalse(DECIMAL_BYTES.matcher(line + summary).find(), line + summary);
    }

    @Test
    void aRefusalNamesTheReasonTheMessageAndWhenToRetryIfARetryCanHelp() {
        assertEquals("rondo play: the server refused the stream of clip.webm: DISK_TIME (the disks are full); retry in "
            + "3 s", PlayMessages.refusal("clip.webm", new Reject(RejectReason.DISK_TIME, 3, "the disks are full")));
        assertEquals("rondo play: the server refused the stream of a.webm: NOT_FOUND",
            PlayMessages.refusal("a.webm", new Reject(RejectReason.NOT_FOUND, 0, "")));
    }

    @Test
    void aBrokenStreamSaysHowItBrokeAndAfterHowMuch() {
        StreamErrorException shutdown = new StreamErrorException(
            new ErrorFrame(ErrorCode.SHUTTING_DOWN.code(), "shutting down"));

        assertEquals("rondo play: the server answered with an error: " + shutdown.getMessage(),
            PlayMessages.broken(shutdown, null));
        assertEquals("rondo play: the server did not answer: read timed out",
            PlayMessages.broken(new SocketTimeoutException("read timed out"), null));
        assertEquals("rondo play: the connection broke before the stream started: Connection reset",
            PlayMessages.broken(new IOException("Connection reset"), null));
        assertEquals("rondo play: the server ended the stream after 2.0 s (2 fragments, 977.5 KiB): "
            + shutdown.getMessage(), PlayMessages.broken(shutdown, twoFragments()));
        assertEquals("rondo play: the stream timed out after 2.0 s (2 fragments, 977.5 KiB): read timed out",
            PlayMessages.broken(new SocketTimeoutException("read timed out"), twoFragments()));
        assertEquals("rondo play: the connection broke after 2.0 s (2 fragments, 977.5 KiB): Connection reset",
            PlayMessages.broken(new IOException("Connection reset"), twoFragments()));
    }

    @Test
    void aConnectionThatCannotBeMadeNamesTheAddressAndWhatToCheck() {
        assertEquals("rondo play: cannot connect to nowhere:8554: unknown host nowhere; is rondo serve running there, "
            + "with that stream port?",
            PlayMessages.cannotConnect("nowhere:8554", new UnknownHostException("nowhere")));
        assertTrue(PlayMessages.cannotConnect("127.0.0.1:1", new ConnectException())
            .startsWith("rondo play: cannot connect to 127.0.0.1:1: ConnectException;"), "no message: its kind");
    }

    @Test
    void aFileSystemFailureIsItsReason() {
        assertEquals("permission denied", PlayMessages.reason(new AccessDeniedException("/x")));
        assertEquals("Read-only file system", PlayMessages.reason(new AccessDeniedException("/x", null,
            "Read-only file system")));
    }
}
