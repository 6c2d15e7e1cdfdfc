package io.rondo.scheduler.admission;

import io.rondo.scheduler.admission.AdmissionDecision.Reject;
import io.rondo.scheduler.admission.AdmissionDecision.Resource;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission on {@link SmallDisk}, rounds of 100 ms with the default reserve of 20% for
 * D-requests: 80 ms for C-requests. A VBR stream of 100,000 B average, 150,000 B peak and a
 * deviation of 20,000 B costs 23 ms under ADM1 (min curve, peak) and 14 ms under ADM3 (mean
 * curve, average): 80 / 23 = 3.5 and 80 / 14 = 5.7, so 3 and 5 streams.
 *
 * <p>ADM2 charges a round of n such streams as a whole ({@link ThroughputModel#roundNs}): one
 * SCAN sweep's seeks, {@code n (1 + 3 / n)} = n + 3 ms; rotations of 2 ms each on average
 * (variance 16 / 12 ms^2 each); transfers of 10 ms each (deviation 2 ms each); plus 4.5
 * deviations of the rotations' and transfers' sum, {@code 4.5 sqrt(5.333 n)} ms, the whole never
 * past 4 + 15 ms a stream: 1 stream 23 ms, 2 streams 43 ms (their worst), 3 60.0 ms, 4 75.79 ms,
 * 5 91.24 ms, 6 106.5 ms. Or XTREAM's Adm2 charge, 19 ms a stream (mean curve, peak), where that
 * is less: 19, 38, 57, 75.79, 91.24, 106.5 ms. So 4 streams in 80 ms, 5 in 100 ms, 2 in 50 ms.
 */
class AdmissionControllerTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND_NS = 1_000_000_000L;
    private static final DiskDemand VBR = new DiskDemand(100_000, 150_000, 20_000);
    private static final AdmissionConfig CONFIG = AdmissionConfig.defaults().withRound(Duration.ofMillis(100));
    /** Streams numbered 0, 1, 2, ... in the order admitted; these stand apart from them. */
    private static final long NEW = 100;
    private static final long LATE = 101;
    private static final long LATER = 102;
    private static final long NEVER_ADMITTED = 103;
    private static final long BIG = 104;
    private static final long HUGE = 105;
    private static final long STRIPED = 106;
    private static final long ANY = 107;
    private static final long X = 108;
    private static final long Y = 109;
    /** The first of a second series of streams, 10, 11, ..., admitted beside 0, 1, 2, .... */
    private static final long SECOND_SERIES = 10;
    /** The first of the streams on the second disk alone, 20, 21, .... */
    private static final long ON_D1 = 20;

    private final CachedNanoClock clock = new CachedNanoClock();

    @Test
    void eachPolicyAdmitsTheStreamsWorkedOutByHand() {
        assertEquals(3, admitUntilRejected(AdmissionPolicy.ADM1));
        assertEquals(4, admitUntilRejected(AdmissionPolicy.ADM2));
        assertEquals(5, admitUntilRejected(AdmissionPolicy.ADM3));

        AdmissionController controller = controller(CONFIG);
        StreamDemand stream = StreamDemand.onDisk(ANY, "d0", VBR);
        assertEquals(3, controller.capacity(AdmissionPolicy.ADM1, stream));
        assertEquals(4, controller.capacity(AdmissionPolicy.ADM2, stream));
        assertEquals(5, controller.capacity(AdmissionPolicy.ADM3, stream));
        // A CBR stream of 100,000 B: 18 ms on the min curve, 14 ms on the mean: 4, 5 and 5 (ADM2's
        // whole round of six, 9 + 72 + 4.5 sqrt(6 * 1.333) = 93.7 ms, is past 80 ms as six times 14).
        StreamDemand cbr = StreamDemand.onDisk(ANY, "d0", DiskDemand.constant(100_000));
        assertEquals(4, controller.capacity(AdmissionPolicy.ADM1, cbr));
        assertEquals(5, controller.capacity(AdmissionPolicy.ADM2, cbr));
        assertEquals(5, controller.capacity(AdmissionPolicy.ADM3, cbr));
    }

    /**
     * A stream whose fragments' spread is not known is taken at the Bhatia-Davis bound, 70,711 B
     * here, so the whole round's transfer is charged at the peaks: 3 streams 6 + 3 * 19 = 63 ms,
     * 4 streams 83 ms. XTREAM's charge, 19 ms a stream, is less: ADM2 admits four, as XTREAM did.
     */
    @Test
    void underAdm2AStreamOfUnknownSpreadIsChargedAsXtreamDid() {
        AdmissionController controller = controller(CONFIG);
        DiskDemand unknown = new DiskDemand(100_000, 150_000);
        int admitted = 0;
        while (controller.admit(StreamDemand.onDisk(admitted, "d0", unknown)).accepted()) {
            admitted++;
        }
        assertEquals(4, admitted);
        assertEquals(76 * MS, controller.committedNs("d0"), 5_000);
    }

    /** The fifth ADM2 stream would make the round 91.24 ms of the 80 ms available. */
    @Test
    void aRejectionNamesTheDiskAndTheTimes() {
        AdmissionController controller = controller(CONFIG);
        fill(controller, 0L, 4);

        AdmissionDecision decision = controller.admit(stream(4L, null));

        Reject reject = assertInstanceOf(Reject.class, decision);
        assertFalse(reject.accepted());
        assertEquals(Resource.DISK_TIME, reject.resource());
        assertEquals("d0", reject.disk());
        assertEquals(91_238_000, reject.needed(), 5_000);
        assertEquals(80 * MS, reject.available());
        assertTrue(reject.reason().contains("disk-time on disk d0: the round with the stream added would need "
            + "91.2 ms of the 80.0 ms available"), reject.reason());
        assertEquals(CONFIG.defaultRetryAfterSeconds(), reject.retryAfterSeconds(),
            "no admitted stream's end is known: the default");
        assertFalse(controller.isAdmitted(4L));
        assertEquals(4, controller.admittedStreams());
    }

    /**
     * The round is 11 ms over; any one stream's 19 ms frees enough, so the wait is for the
     * first known end: stream 1 ends 10 s after admission, and 4 s have passed.
     */
    @Test
    void retryAfterIsWhenEnoughAdmittedStreamsHaveEnded() {
        AdmissionController controller = controller(CONFIG);
        assertTrue(controller.admit(stream(0L, Duration.ofSeconds(30))).accepted());
        assertTrue(controller.admit(stream(1L, Duration.ofSeconds(10))).accepted());
        assertTrue(controller.admit(stream(2L, null)).accepted());
        assertTrue(controller.admit(stream(3L, Duration.ofSeconds(20))).accepted());
        clock.advance(4 * SECOND_NS);

        Reject reject = assertInstanceOf(Reject.class, controller.decide(stream(NEW, null)));
        assertEquals(6, reject.retryAfterSeconds());
        assertTrue(reject.reason().endsWith("retry after 6 s"), reject.reason());

        // Past stream 1's end (it has not been released yet) the answer is the least wait, 1 s.
        clock.advance(7 * SECOND_NS);
        assertEquals(1, ((Reject) controller.decide(stream(NEW, null))).retryAfterSeconds());
    }

    /** A stream needing two others to end waits for the second: stream 3 (20 s), not stream 1 (10 s). */
    @Test
    void retryAfterCountsTheStreamsThatMustEnd() {
        AdmissionController controller = controller(CONFIG.withPolicy(AdmissionPolicy.ADM3));
        // Five ADM3 streams take 5 * 14 = 70 ms; a CBR newcomer of 300,000 B costs 4 + 30 = 34 ms:
        // 104 ms, 24 ms over, so two 14 ms streams must end.
        long[] ids = {0L, 1L, 2L, 3L, 4L};
        Duration[] durations = {null, Duration.ofSeconds(10), null, Duration.ofSeconds(20), Duration.ofSeconds(40)};
        for (int i = 0; i < ids.length; i++) {
            assertTrue(controller.admit(stream(ids[i], durations[i])).accepted());
        }

        StreamDemand big = StreamDemand.onDisk(BIG, "d0", DiskDemand.constant(300_000));
        Reject reject = assertInstanceOf(Reject.class, controller.decide(big));
        assertEquals(104 * MS, reject.needed(), 5_000);
        assertEquals(20, reject.retryAfterSeconds());
    }

    @Test
    void aStreamTooLargeForAnIdleDiskIsNotWorthRetrying() {
        AdmissionController controller = controller(CONFIG);
        // 1,000,000 B: 4 ms of access and 100 ms of transfer, more than the 80 ms a round has.
        Reject reject = assertInstanceOf(Reject.class,
            controller.admit(StreamDemand.onDisk(HUGE, "d0", DiskDemand.constant(1_000_000))));

        assertFalse(reject.retryable());
        assertEquals(0, reject.retryAfterSeconds());
        assertTrue(reject.reason().contains("does not fit even alone"), reject.reason());
    }

    @Test
    void releaseMakesRoomAgain() {
        AdmissionController controller = controller(CONFIG);
        fill(controller, 0L, 4);
        assertFalse(controller.admit(stream(LATE, null)).accepted());

        assertTrue(controller.release(2L));
        assertFalse(controller.release(2L), "released twice");
        assertFalse(controller.release(NEVER_ADMITTED));
        assertEquals(3, controller.admittedStreams("d0"));

        assertTrue(controller.admit(stream(LATE, null)).accepted());
        assertFalse(controller.admit(stream(LATER, null)).accepted());
        // Everyone leaves: nothing is held.
        for (long id : List.of(0L, 1L, 3L, LATE)) {
            assertTrue(controller.release(id));
        }
        assertEquals(0, controller.committedNs("d0"));
        assertEquals(0, controller.bufferBytesInUse());
    }

    /**
     * The reserve for D-requests is kept out of every round: with none, 5 ADM2 streams fit
     * (91.24 ms of 100 ms); with the default 20%, 4 (75.79 of 80); with half the round, 2
     * (38 of 50).
     */
    @Test
    void theReserveForDRequestsIsHonoured() {
        assertEquals(5, admitUntilRejected(controller(CONFIG.withDiscreteReserve(0))));
        assertEquals(4, admitUntilRejected(controller(CONFIG)));
        AdmissionController halfReserved = controller(CONFIG.withDiscreteReserve(0.5));
        assertEquals(2, admitUntilRejected(halfReserved));
        assertEquals(38 * MS, halfReserved.committedNs("d0"), 5_000);
        assertTrue(halfReserved.committedNs("d0") <= 50 * MS, "the C-requests stay out of the reserved half");
        assertThrows(IllegalArgumentException.class, () -> CONFIG.withDiscreteReserve(1));
    }

    /**
     * Each stream holds two peak fragments, 2 * 150,000 = 300,000 B; under a 1,000,000 B
     * ceiling three fit (900,000 B) and the fourth finds 100,000 B free, though the disk would
     * take it.
     */
    @Test
    void bufferMemoryLimitsAdmission() {
        AdmissionController controller = controller(CONFIG.withBufferCeilingBytes(1_000_000));
        assertTrue(controller.admit(stream(0L, Duration.ofSeconds(8))).accepted());
        fill(controller, SECOND_SERIES, 2);
        assertEquals(900_000, controller.bufferBytesInUse());

        Reject reject = assertInstanceOf(Reject.class, controller.admit(stream(3L, null)));
        assertEquals(Resource.BUFFER_MEMORY, reject.resource());
        assertNull(reject.disk());
        assertEquals(300_000, reject.needed());
        assertEquals(100_000, reject.available());
        assertTrue(reject.reason().contains("buffer-memory: needs 300000 bytes, 100000 free"), reject.reason());
        assertTrue(reject.reason().contains("raise buffers.ceiling in rondo.yaml")
            && reject.reason().contains("RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize="), "says how: " + reject.reason());
        assertEquals(8, reject.retryAfterSeconds(), "stream 0's end frees enough buffer memory");
        assertEquals(3, controller.capacity(AdmissionPolicy.ADM2, stream(ANY, null)),
            "capacity counts buffer memory too");

        controller.release(SECOND_SERIES);
        assertTrue(controller.admit(stream(3L, null)).accepted());
    }

    /**
     * The network carries one fragment a round: under ADM2 the peak, 150,000 B every 100 ms,
     * 12 Mbit/s. A 36 Mbit/s link takes three exactly (the disk would take four), and the fourth
     * is refused with the sum it would make, the capacity, and when the first stream ends.
     */
    @Test
    void theNetworkAdmitsUpToItsCapacityExactly() {
        AdmissionController controller = controller(CONFIG.withNetworkBitsPerSecond(36_000_000));
        assertTrue(controller.admit(stream(0L, Duration.ofSeconds(6))).accepted());
        fill(controller, SECOND_SERIES, 2);
        assertEquals(36_000_000, controller.networkBitsPerSecondInUse(), "at capacity, and admitted");

        Reject reject = assertInstanceOf(Reject.class, controller.admit(stream(3L, null)));
        assertEquals(Resource.NETWORK, reject.resource());
        assertNull(reject.disk());
        assertEquals(48_000_000, reject.needed());
        assertEquals(36_000_000, reject.available());
        assertTrue(reject.reason().contains("network: the streams with this one added would send 48.0 Mbit/s, past "
            + "the 36.0 Mbit/s of network.capacity in rondo.yaml"), reject.reason());
        assertEquals(6, reject.retryAfterSeconds(), "stream 0's end frees enough of the link");
        assertEquals(3, controller.capacity(AdmissionPolicy.ADM2, stream(ANY, null)),
            "capacity counts the network too");
        assertEquals(36_000_000, controller.networkBitsPerSecondInUse(), "a refused stream is charged nothing");
    }

    /** One bit a second short of three streams' 36 Mbit/s, the third is refused. */
    @Test
    void theNetworkRefusesJustPastItsCapacity() {
        AdmissionController controller = controller(CONFIG.withNetworkBitsPerSecond(35_999_999));
        fill(controller, 0L, 2);

        Reject reject = assertInstanceOf(Reject.class, controller.admit(stream(2L, null)));
        assertEquals(Resource.NETWORK, reject.resource());
        assertEquals(36_000_000, reject.needed());
        assertEquals(AdmissionConfig.DEFAULT_RETRY_AFTER_SECONDS, reject.retryAfterSeconds(),
            "no admitted stream's end is known");
    }

    @Test
    void releasingAStreamFreesItsShareOfTheNetwork() {
        AdmissionController controller = controller(CONFIG.withNetworkBitsPerSecond(36_000_000));
        fill(controller, 0L, 3);
        assertFalse(controller.admit(stream(3L, null)).accepted());

        assertTrue(controller.release(1L));

        assertEquals(24_000_000, controller.networkBitsPerSecondInUse());
        assertTrue(controller.admit(stream(3L, null)).accepted());
        assertEquals(36_000_000, controller.networkBitsPerSecondInUse());
    }

    /**
     * ADM3 charges the average fragment, as it does the disks: 100,000 B every 100 ms is 8 Mbit/s,
     * so the 36 Mbit/s link takes four; a stream striped over disks with different averages is
     * charged the largest of them.
     */
    @Test
    void underAdm3TheNetworkIsChargedTheAverageFragment() {
        AdmissionController controller = controller(CONFIG.withPolicy(AdmissionPolicy.ADM3)
            .withNetworkBitsPerSecond(36_000_000));

        assertEquals(4, admitUntilRejected(controller));
        assertEquals(32_000_000, controller.networkBitsPerSecondInUse());

        AdmissionController striped = new AdmissionController(Map.of("d0", new SmallDisk(), "d1", new SmallDisk()),
            CONFIG.withPolicy(AdmissionPolicy.ADM3), clock);
        assertTrue(striped.admit(new StreamDemand(0L, Map.of("d0", VBR, "d1", new DiskDemand(50_000, 150_000)),
            null)).accepted());
        assertEquals(8_000_000, striped.networkBitsPerSecondInUse(), "the larger average, counted though unlimited");
    }

    /** A stream that alone sends more than the link carries is refused for good, and told so. */
    @Test
    void aStreamFasterThanTheLinkNeverFits() {
        AdmissionController controller = controller(CONFIG.withNetworkBitsPerSecond(10_000_000));

        Reject reject = assertInstanceOf(Reject.class, controller.admit(stream(0L, null)));

        assertEquals(Resource.NETWORK, reject.resource());
        assertFalse(reject.retryable());
        assertTrue(reject.reason().endsWith("it does not fit even alone"), reject.reason());
    }

    /** A stream striped over two disks must fit both; the full one is named. */
    @Test
    void aStreamOnSeveralDisksMustFitEachOfThem() {
        AdmissionController controller = new AdmissionController(Map.of("d0", new SmallDisk(), "d1", new SmallDisk()),
            CONFIG, clock);
        for (int i = 0; i < 4; i++) {
            assertTrue(controller.admit(StreamDemand.onDisk(ON_D1 + i, "d1", VBR)).accepted());
        }
        StreamDemand striped = new StreamDemand(STRIPED, Map.of("d0", VBR, "d1", VBR), null);

        Reject reject = assertInstanceOf(Reject.class, controller.admit(striped));
        assertEquals("d1", reject.disk());
        assertEquals(0, controller.committedNs("d0"), "a rejected stream reserves nothing, on any disk");

        controller.release(ON_D1);
        assertTrue(controller.admit(striped).accepted());
        assertEquals(19 * MS, controller.committedNs("d0"), 5_000, "one stream: XTREAM's charge");
        assertEquals(75_785_000, controller.committedNs("d1"), 5_000, "four streams' round");
        assertEquals(300_000 * 4, controller.bufferBytesInUse(), "one stream, one pair of buffers, however striped");
    }

    @Test
    void decideReservesNothing() {
        AdmissionController controller = controller(CONFIG);
        fill(controller, 0L, 3);

        assertTrue(controller.decide(stream(X, null)).accepted());
        assertTrue(controller.decide(stream(Y, null)).accepted());
        assertTrue(controller.admit(stream(X, null)).accepted());
        assertFalse(controller.decide(stream(Y, null)).accepted());
    }

    // ---- settings changed at run time ----

    /** With no reserve a round has 100 ms for the streams: a fifth ADM2 stream (91.24 ms) fits, a sixth (106.5) not. */
    @Test
    void loweringTheReserveAdmitsMoreAtOnce() {
        AdmissionController controller = controller(CONFIG);
        fill(controller, 0L, 4);
        assertFalse(controller.decide(stream(4L, null)).accepted());

        Reconfiguration change = controller.reconfigure(CONFIG.withDiscreteReserve(0));

        assertEquals(new Reconfiguration(4, 0), change);
        assertEquals(CONFIG.withDiscreteReserve(0), controller.config());
        assertTrue(controller.admit(stream(4L, null)).accepted());
        assertFalse(controller.admit(stream(5L, null)).accepted());
    }

    /**
     * Half the round reserved leaves 50 ms: of four ADM2 streams the first two fit (38 ms)
     * and the last two exceed (60.0 ms with a third). All four keep playing; new streams are refused until the disk's
     * streams fit the 50 ms with the newcomer, that is until three have ended.
     */
    @Test
    void raisingTheReserveKeepsTheStreamsAndRefusesNewOnesUntilEnoughEnd() {
        AdmissionController controller = controller(CONFIG);
        fill(controller, 0L, 4);

        Reconfiguration change = controller.reconfigure(CONFIG.withDiscreteReserve(0.5));

        assertEquals(new Reconfiguration(4, 2), change);
        assertEquals(4, controller.admittedStreams(), "no running stream is dropped");
        Reject reject = assertInstanceOf(Reject.class, controller.admit(stream(NEW, null)));
        assertEquals(Resource.DISK_TIME, reject.resource());
        assertEquals(50 * MS, reject.available());
        assertTrue(controller.release(0L));
        assertTrue(controller.release(1L));
        assertFalse(controller.admit(stream(NEW, null)).accepted(), "three streams' 60 ms is still past 50 ms");
        assertTrue(controller.release(2L));
        assertTrue(controller.admit(stream(NEW, null)).accepted());
    }

    /**
     * ADM2 (75.79 ms for four) to ADM3: the four streams are charged their average fragments
     * again (14 ms each, 56 ms), so a fifth fits and the capacity is five. Back to ADM1 (23 ms
     * each), three of the five fit 80 ms and two exceed.
     */
    @Test
    void changingThePolicyChargesTheAdmittedStreamsAgain() {
        AdmissionController controller = controller(CONFIG);
        fill(controller, 0L, 4);
        assertEquals(75_785_000, controller.committedNs("d0"), 5_000);

        assertEquals(new Reconfiguration(4, 0), controller.reconfigure(CONFIG.withPolicy(AdmissionPolicy.ADM3)));

        assertEquals(AdmissionPolicy.ADM3, controller.policy());
        assertEquals(56 * MS, controller.committedNs("d0"), 5_000);
        assertEquals(5, controller.capacity(controller.policy(), stream(ANY, null)));
        AdmissionDecision accepted = controller.admit(stream(4L, null));
        assertEquals(AdmissionPolicy.ADM3, ((AdmissionDecision.Accept) accepted).policy());
        assertFalse(controller.admit(stream(5L, null)).accepted());

        assertEquals(new Reconfiguration(5, 2), controller.reconfigure(CONFIG.withPolicy(AdmissionPolicy.ADM1)));
        assertEquals(5 * 23 * MS, controller.committedNs("d0"), 5_000);
        assertEquals(3, controller.capacity(controller.policy(), stream(ANY, null)));
    }

    @Test
    void theRoundLengthCannotChangeAtRunTime() {
        AdmissionController controller = controller(CONFIG);
        fill(controller, 0L, 1);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> controller.reconfigure(CONFIG.withRound(Duration.ofMillis(200))));

        assertTrue(e.getMessage().contains("fragments are cut to the round at ingest"), e.getMessage());
        assertEquals(CONFIG, controller.config(), "the settings in force are kept");
        assertEquals(1, controller.admittedStreams());
    }

    @Test
    void misuseIsRefusedWithTheReason() {
        AdmissionController controller = controller(CONFIG);
        assertTrue(controller.admit(stream(0L, null)).accepted());

        IllegalStateException twice = assertThrows(IllegalStateException.class,
            () -> controller.admit(stream(0L, null)));
        assertTrue(twice.getMessage().contains("already admitted"), twice.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> controller.admit(StreamDemand.onDisk(1L, "d9", VBR)));
        assertTrue(unknown.getMessage().contains("'d9'") && unknown.getMessage().contains("[d0]"),
            unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DiskDemand(200, 100));
        assertThrows(IllegalArgumentException.class, () -> new StreamDemand(0L, Map.of(), null));
    }

    /** 6.4 Mbit/s for a 1 s round is an 800,000-byte fragment on every disk the stream touches. */
    @Test
    void aStreamCanBeDeclaredByItsBitRates() {
        StreamDemand demand = StreamDemand.ofBitRates(0L, 6.4e6, 9.6e6, Duration.ofSeconds(1), List.of("b", "a"),
            Duration.ofMinutes(90));

        assertEquals(List.of("a", "b"), List.copyOf(demand.disks().keySet()));
        assertEquals(new DiskDemand(800_000, 1_200_000), demand.disks().get("a"));
        assertEquals(2_400_000, 2 * demand.peakFragmentBytes());
        assertEquals(Duration.ofMinutes(90), demand.knownDuration().orElseThrow());
    }

    private int admitUntilRejected(AdmissionPolicy policy) {
        return admitUntilRejected(controller(CONFIG.withPolicy(policy)));
    }

    private static int admitUntilRejected(AdmissionController controller) {
        int admitted = 0;
        while (controller.admit(StreamDemand.onDisk(admitted, "d0", VBR)).accepted()) {
            admitted++;
            assertTrue(controller.committedNs("d0") <= controller.config().continuousNs());
        }
        return admitted;
    }

    /**
     * papers/004 Figure 21 in small: fragments of at most 120,000 B, in 128 KiB buffers, under a
     * 1,000,000 B ceiling. Double-buffered, each stream is charged 240,000 B: four fit, the fifth
     * is refused for buffer memory. A client that buffers and receives fast (ClBufRate, a fragment
     * held at most 20 ms after its read) draws on a shared account whose bound is what the disk
     * can fill in 20 ms: at 100 ns a byte its fastest read of the smallest fragment, 80,000 B,
     * takes 8 ms and fills a 128 KiB buffer, 16.384 bytes a microsecond, so 327,680 B in 20 ms and
     * two buffers more, 589,824 B, whatever the number of streams: the fifth is admitted where the
     * double-buffered one was refused, and the disk, not the memory, stops the streams.
     */
    @Test
    void aClientThatBuffersAndReceivesFastIsAdmittedWhereADoubleBufferedOneIsRefused() {
        AdmissionConfig config = CONFIG.withBufferCeilingBytes(1_000_000);
        DiskDemand small = new DiskDemand(100_000, 120_000, 10_000);
        AdmissionController doubled = controller(config);
        long id = 0;
        AdmissionDecision last;
        while ((last = doubled.admit(new StreamDemand(id, Map.of("d0", small), null))).accepted()) {
            id++;
        }
        assertEquals(4, id, "four double buffers of 240,000 B");
        assertEquals(Resource.BUFFER_MEMORY, ((Reject) last).resource());

        AdmissionController fast = controller(config);
        ClientBuffers rate = new ClientBuffers(BufferMode.CLIENT_RATE, 128 * 1024, 20 * MS, List.of(80_000L));
        id = 0;
        while ((last = fast.admit(new StreamDemand(id, Map.of("d0", small), null, rate))).accepted()) {
            id++;
            assertTrue(fast.bufferBytesInUse() <= 589_824, "the shared account stops at its bound");
        }
        assertTrue(id > 4, "more than double buffering admitted: " + id);
        assertEquals(Resource.DISK_TIME, ((Reject) last).resource(), "the disk, not the memory, stops them");
        assertEquals(589_824L, fast.sharedBufferBytes().get("clbufrate"));
        assertTrue(fast.capacity(AdmissionPolicy.ADM2, new StreamDemand(ANY, Map.of("d0", small), null, rate)) >= id);

        fast.release(0);
        assertEquals(589_824L, fast.sharedBufferBytes().get("clbufrate"), "still at its bound");
    }

    /**
     * A ClBuf client keeps one buffer of its own and draws its second on the shared account; with a
     * hold as long as the round the bound is past what the streams could draw, so each is charged
     * both its buffers, its own and its shared one, until the disk's bound is less.
     */
    @Test
    void aClientThatBuffersSlowlyKeepsOneBufferOfItsOwn() {
        AdmissionController controller = controller(CONFIG.withBufferCeilingBytes(10_000_000));
        DiskDemand small = new DiskDemand(100_000, 120_000, 10_000);
        ClientBuffers buffer = new ClientBuffers(BufferMode.CLIENT_BUFFER, 128 * 1024, 100 * MS, List.of(80_000L));

        assertTrue(controller.admit(new StreamDemand(1, Map.of("d0", small), null, buffer)).accepted());
        assertTrue(controller.admit(new StreamDemand(2, Map.of("d0", small), null, buffer)).accepted());

        assertEquals(2 * 128 * 1024L, controller.sharedBufferBytes().get("clbuf"), "one shared buffer each");
        assertEquals(4 * 128 * 1024L, controller.bufferBytesInUse(), "and one own each");
    }

    /** Admits {@code streams} streams of unknown duration, numbered from {@code first}. */
    private static void fill(AdmissionController controller, long first, int streams) {
        for (long id = first; id < first + streams; id++) {
            assertTrue(controller.admit(stream(id, null)).accepted(), "stream " + id);
        }
    }

    private AdmissionController controller(AdmissionConfig config) {
        return new AdmissionController(Map.of("d0", new SmallDisk()), config, clock);
    }

    private static StreamDemand stream(long id, Duration duration) {
        return new StreamDemand(id, Map.of("d0", VBR), duration);
    }
}
