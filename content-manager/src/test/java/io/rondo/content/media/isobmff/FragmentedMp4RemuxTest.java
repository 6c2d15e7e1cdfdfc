package io.rondo.content.media.isobmff;

import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static io.rondo.content.media.isobmff.RemuxChecks.assertOneRoundEach;
import static io.rondo.content.media.isobmff.RemuxChecks.assertSamplesIdentical;
import static io.rondo.content.media.isobmff.RemuxChecks.store;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * per fragment; and two hours of them, a round each. How fast that runs is RemuxBenchmark's figure
 * ({@code -p container=fragmented-mp4}), not asserted here on a shared machine.
 */
class FragmentedMp4RemuxTest {

    private static final int TWO_HOURS_S = 2 * 60 * 60;

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
    void twoHoursOfMoofsAreStoredAsOneWellFormedFragmentARound() throws IOException {
        Path source = Files.write(dir.resolve("two-hours.mp4"),
            new SyntheticMp4().withAudio().fragments(TWO_HOURS_S / 10, 250, 3600, 120).write().bytes());
        Path stored = dir.resolve("stored.mp4");

        MediaIndex index = store(source, SECOND, stored);

        assertEquals(TWO_HOURS_S, index.fragments().size());
        assertEquals(TWO_HOURS_S * SECOND, index.durationNs());
        assertWellFormed(index, Files.size(stored));
    }
}
