package io.rondo.content.media;

import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static io.rondo.content.media.RemuxChecks.assertOneRoundEach;
import static io.rondo.content.media.RemuxChecks.assertSamplesIdentical;
import static io.rondo.content.media.RemuxChecks.store;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fragmented MP4s of 10 s moofs as other muxers lay them out ({@link SyntheticMp4}), stored one round
 * per fragment; and two hours of them planned and stored in seconds.
 */
class Mp4RemuxSpeedTest {

    private static final int TWO_HOURS_S = 2 * 60 * 60;
    private static final long PLAN_LIMIT_MS = 2000;
    private static final long STORE_LIMIT_MS = 10_000;

    @TempDir
    Path dir;

    static Stream<Arguments> layouts() {
        return Stream.of(
            Arguments.of("per-sample durations", UnaryOperator.<SyntheticMp4>identity()),
            Arguments.of("durations in tfhd", (UnaryOperator<SyntheticMp4>) SyntheticMp4::defaultDurations),
            Arguments.of("durations in trex only", (UnaryOperator<SyntheticMp4>) SyntheticMp4::trexDurations),
            Arguments.of("no tfdt", (UnaryOperator<SyntheticMp4>) SyntheticMp4::noTfdt),
            Arguments.of("tfdt version 0", (UnaryOperator<SyntheticMp4>) SyntheticMp4::tfdtVersion0),
            Arguments.of("styp and sidx", (UnaryOperator<SyntheticMp4>) SyntheticMp4::stypAndSidx),
            Arguments.of("64-bit mdat sizes", (UnaryOperator<SyntheticMp4>) SyntheticMp4::largeMdat),
            Arguments.of("an mfra", (UnaryOperator<SyntheticMp4>) SyntheticMp4::mfra),
            Arguments.of("a last mdat to the end", (UnaryOperator<SyntheticMp4>) SyntheticMp4::lastMdatToEnd));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void tenSecondMoofsBecomeOneFragmentARound(String layout, UnaryOperator<SyntheticMp4> options)
        throws IOException {
        Path source = Files.write(dir.resolve("source.mp4"),
            options.apply(new SyntheticMp4().withAudio()).fragments(4, 250, 3600, 100).write().bytes());
        Path stored = dir.resolve("stored.mp4");

        MediaIndex index = store(source, SECOND, stored);

        assertWellFormed(index, Files.size(stored));
        assertEquals(40, index.fragments().size());
        assertEquals(40 * SECOND, index.durationNs());
        assertOneRoundEach(index, stored, SECOND);
        assertSamplesIdentical(source, stored);
    }

    @Test
    void twoHoursArePlannedFromTheTablesAndStoredInSeconds() throws IOException {
        Path source = Files.write(dir.resolve("two-hours.mp4"),
            new SyntheticMp4().withAudio().fragments(TWO_HOURS_S / 10, 250, 3600, 120).write().bytes());
        Path stored = dir.resolve("stored.mp4");

        long started = System.nanoTime();
        Preparation preparation = Mp4Remuxer.prepare(source, SECOND);
        long planMs = (System.nanoTime() - started) / 1_000_000;
        ((Preparation.Continuous) preparation).media().close();
        MediaIndex index = store(source, SECOND, stored);
        long storeMs = (System.nanoTime() - started) / 1_000_000 - planMs;

        assertEquals(TWO_HOURS_S, index.fragments().size());
        assertEquals(TWO_HOURS_S * SECOND, index.durationNs());
        assertWellFormed(index, Files.size(stored));
        assertTrue(planMs < PLAN_LIMIT_MS, "planning 2 h (180,000 frames, 337,500 AAC frames) took " + planMs + " ms");
        assertTrue(storeMs < STORE_LIMIT_MS, "planning and storing 2 h took " + storeMs + " ms");
    }
}
