package io.rondo.scheduler.admission;

import io.rondo.scheduler.RoundSummary;
import io.rondo.scheduler.admission.AdmissionDecision.Reject;
import io.rondo.scheduler.admission.AdmissionDecision.Resource;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission held to what the server really does: on {@link SmallDisk} with rounds of 100 ms, ADM2
 * admits four streams of {@code VBR} by the model alone (their round 75.8 ms of the 80 ms; see
 * {@link AdmissionControllerTest}). Rounds measured at 1.5 times the model leave room for two
 * (43 ms modelled, 64.5 ms measured; three would be 57 ms, 85.5 ms measured); fragments leaving
 * less than half a round before their deadlines admit none.
 */
class MeasuredAdmissionTest {

    private static final long MS = 1_000_000L;
    private static final long ROUND_NS = 100 * MS;
    private static final DiskDemand VBR = new DiskDemand(100_000, 150_000, 20_000);
    private static final AdmissionConfig CONFIG = AdmissionConfig.defaults().withRound(Duration.ofNanos(ROUND_NS));
    private static final int REQUESTS = MeasuredRounds.MIN_REQUESTS;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final AdmissionController controller = new AdmissionController(Map.of("d0", new SmallDisk()), CONFIG,
        clock);

    @Test
    void unmeasuredTheModelAloneJudges() {
        assertEquals(1.0, controller.inflation("d0"));
        assertEquals(4, admitUntilRejected());
    }

    @Test
    void roundsThatTakeLongerThanModelledAdmitFewerStreams() {
        for (int i = 0; i < MeasuredRounds.WINDOW_ROUNDS; i++) {
            controller.roundEnded("d0", round(REQUESTS, 1.5));
        }
        assertEquals(1.5, controller.inflation("d0"), 1e-6);

        assertEquals(2, admitUntilRejected());
        Reject reject = assertInstanceOf(Reject.class, controller.admit(stream(99)));
        assertEquals(Resource.DISK_TIME, reject.resource());
        assertEquals(1.5, reject.inflation(), 1e-6);
        assertEquals(85_500_000, reject.needed(), 10_000, "three streams' 57 ms, as measured");
        assertTrue(reject.reason().contains("as measured: its last rounds took 1.50 times what its model says"),
            reject.reason());
    }

    /** Rounds of 16 small reads in half the time the model gives them: fitting, and faster than modelled. */
    @Test
    void roundsFasterThanModelledNeverAdmitMoreThanTheModel() {
        long bytes = 1_000;
        long halfNs = REQUESTS * controller.throughputModel("d0").meanCurveNs(bytes) / 2;
        for (int i = 0; i < MeasuredRounds.WINDOW_ROUNDS; i++) {
            controller.roundEnded("d0", new RoundSummary(0, ROUND_NS, REQUESTS, REQUESTS, 0, 0, 0, halfNs, 0, halfNs,
                REQUESTS * bytes));
        }
        assertEquals(1.0, controller.inflation("d0"));
        assertEquals(4, admitUntilRejected());
    }

    @Test
    void oneStretchedRoundAmongOrdinaryOnesDoesNotCloseAdmission() {
        for (int i = 0; i < MeasuredRounds.WINDOW_ROUNDS - 1; i++) {
            controller.roundEnded("d0", round(REQUESTS, 1.0));
        }
        controller.roundEnded("d0", round(REQUESTS, 5.0));
        assertEquals(1.0, controller.inflation("d0"), 1e-6);

        controller.roundEnded("d0", round(REQUESTS, 5.0));
        controller.roundEnded("d0", round(REQUESTS, 5.0));
        assertEquals(5.0, controller.inflation("d0"), 1e-6, "three of the last five rounds stretched: it lasts");
    }

    @Test
    void roundsOfTooFewFragmentsAreNotMeasured() {
        controller.roundEnded("d0", round(REQUESTS - 1, 3.0));
        assertEquals(1.0, controller.inflation("d0"));
    }

    /**
     * A round of a second whose 16 small reads take 65.6 ms by the model, stretched by a 100 ms
     * pause: a fixed cost, not the reads'. The same reads in a round of 500 ms are an eighth of it,
     * and are measured.
     */
    @Test
    void lightRoundsAreNotMeasured() {
        long bytes = 1_000;
        long modelledNs = REQUESTS * controller.throughputModel("d0").meanCurveNs(bytes);
        assertEquals(65_600_000, modelledNs, 100_000);
        long stretchedNs = modelledNs + 100 * MS;
        long lightRoundNs = 1_000 * MS;
        for (int i = 0; i < MeasuredRounds.WINDOW_ROUNDS; i++) {
            controller.roundEnded("d0", new RoundSummary(0, lightRoundNs, REQUESTS, REQUESTS, 0, 0, 0, stretchedNs, 0,
                stretchedNs, REQUESTS * bytes));
        }
        assertEquals(1.0, controller.inflation("d0"));

        long heavyRoundNs = 500 * MS;
        for (int i = 0; i < MeasuredRounds.WINDOW_ROUNDS; i++) {
            controller.roundEnded("d0", new RoundSummary(0, heavyRoundNs, REQUESTS, REQUESTS, 0, 0, 0, stretchedNs, 0,
                stretchedNs, REQUESTS * bytes));
        }
        assertEquals((double) stretchedNs / modelledNs, controller.inflation("d0"), 1e-6);
    }

    /** A round's C-requests that waited for a core between IOs count their gaps, not only their IO time. */
    @Test
    void gapsBetweenARoundsReadsCountAsItsTime() {
        long modelledNs = REQUESTS * controller.throughputModel("d0").meanCurveNs(100_000);
        long lastDoneNs = 2 * modelledNs;
        RoundSummary gappy = new RoundSummary(0, ROUND_NS, REQUESTS, REQUESTS, 0, 0, 0, modelledNs, 0, lastDoneNs,
            REQUESTS * 100_000L);
        for (int i = 0; i < MeasuredRounds.WINDOW_ROUNDS; i++) {
            controller.roundEnded("d0", gappy);
        }
        assertEquals(2.0, controller.inflation("d0"), 1e-6);
    }

    @Test
    void fragmentsLeavingLessThanHalfARoundBeforeTheirDeadlinesCloseAdmission() {
        controller.delivered(ROUND_NS / 2, 0);
        assertTrue(controller.admit(stream(0)).accepted(), "exactly half a round of slack is enough");

        controller.delivered(ROUND_NS / 2 - 1, 10 * MS);
        Reject reject = assertInstanceOf(Reject.class, controller.admit(stream(1)));
        assertEquals(Resource.DELIVERY, reject.resource());
        assertEquals(ROUND_NS / 2 - 1, reject.available());
        assertTrue(reject.reason().contains("delivery: the streams' fragments left as little as 50.0 ms before their "
            + "deadlines"), reject.reason());
        assertTrue(reject.retryable());
    }

    @Test
    void admissionOpensAgainOnceTheShortSlackIsThreeRoundsOld() {
        controller.delivered(-5 * MS, 0);
        clock.update(DeliverySlack.WINDOWS * ROUND_NS - 1);
        assertEquals(-5 * MS, controller.leastDeliverySlackNs());
        assertInstanceOf(Reject.class, controller.admit(stream(0)));

        clock.update(DeliverySlack.WINDOWS * ROUND_NS);
        assertEquals(Long.MAX_VALUE, controller.leastDeliverySlackNs());
        assertTrue(controller.admit(stream(0)).accepted());
    }

    /**
     * Streams opening faster than rounds can be measured: past half the round by the model (two
     * streams of 19 ms here, 40 ms of the 80 ms), a disk takes half again as many as its recent
     * rounds read and fitted; a round that read three and fitted lets four in, one that overran
     * lets none more.
     */
    @Test
    void streamsPastHalfTheRoundWaitForARoundThatFitsWithThem() {
        controller.roundEnded("d0", emptyRound());
        assertEquals(2, admitUntilRejected());
        Reject reject = assertInstanceOf(Reject.class, controller.admit(stream(99)));
        assertEquals(Resource.MEASURING, reject.resource());
        assertEquals(1, reject.retryAfterSeconds(), "a round from now");
        assertTrue(reject.reason().contains("measuring on disk d0: its last rounds read and fitted streams enough "
            + "for 2 at most"), reject.reason());

        controller.roundEnded("d0", fitting(3));
        assertTrue(controller.admit(stream(2)).accepted(), "half again as many as the round's three: four");
        assertTrue(controller.admit(stream(3)).accepted());
        assertInstanceOf(Reject.class, controller.admit(stream(4)), "the model's own limit is four");

        MeasuredRounds rounds = new MeasuredRounds(controller.throughputModel("d0"));
        rounds.roundEnded(fitting(10), 80 * MS);
        assertEquals(15, rounds.measuredLimit(19 * MS, 80 * MS));
        RoundSummary overrun = new RoundSummary(0, ROUND_NS, 12, 11, 1, 0, 0, 60 * MS, 0, 110 * MS, 12 * 100_000L);
        for (int i = 0; i < MeasuredRounds.WINDOW_ROUNDS; i++) {
            rounds.roundEnded(overrun, 80 * MS);
        }
        assertEquals(2, rounds.measuredLimit(19 * MS, 80 * MS), "rounds that overran verify nothing");
    }

    private static RoundSummary emptyRound() {
        return new RoundSummary(0, ROUND_NS, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** A round that read {@code streams} fragments of 100,000 B in 5 ms each, well within the round. */
    private static RoundSummary fitting(int streams) {
        return new RoundSummary(0, ROUND_NS, streams, streams, 0, 0, 0, streams * 5 * MS, 0, streams * 5 * MS,
            streams * 100_000L);
    }

    /** A round of {@code requests} fragments of 100,000 B that took {@code ratio} times the mean curve's time. */
    private RoundSummary round(int requests, double ratio) {
        long modelledNs = requests * controller.throughputModel("d0").meanCurveNs(100_000);
        long busyNs = (long) (modelledNs * ratio);
        return new RoundSummary(0, ROUND_NS, requests, requests, 0, 0, 0, busyNs, 0, busyNs, requests * 100_000L);
    }

    private int admitUntilRejected() {
        int admitted = 0;
        while (controller.admit(stream(admitted)).accepted()) {
            admitted++;
        }
        return admitted;
    }

    private static StreamDemand stream(long id) {
        return new StreamDemand(id, Map.of("d0", VBR), null);
    }
}
