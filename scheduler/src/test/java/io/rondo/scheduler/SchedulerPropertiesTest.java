package io.rondo.scheduler;

import io.rondo.scheduler.policy.Limitation;
import io.rondo.scheduler.policy.SchedulingPolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static io.rondo.scheduler.TestDisk.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Properties of {@link DiskScheduler} over several hundred seeded random workloads (papers/001
 * Sections 2.3 and 4): a few rounds of random C-requests and Poisson D-arrivals, from light load
 * to overload, driven by an event loop in front of a modelled disk whose actual service never
 * exceeds the scheduler's estimate (seek, a rotation drawn from one revolution, transfer).
 */
class SchedulerPropertiesTest {

    private static final int CASES = 300;
    private static final long ROUND_NS = 1_000 * MS;
    private static final TestDisk DISK = new TestDisk(100_000);
    private static final long MAX_DISCRETE_BYTES = 20_000;
    private static final long MAX_CONTINUOUS_BYTES = 120_000;
    /** The longest a D-request can take: a full stroke, a full revolution, the largest transfer. */
    private static final long MAX_DISCRETE_SERVICE_NS =
        DISK.maxSeekNs() + DISK.worstCaseRotationNs() + MAX_DISCRETE_BYTES * TestDisk.NS_PER_BYTE;

    /** The four presets and a spread of the rest of the framework. */
    private static final List<SchedulingPolicy> POLICIES = List.of(
        SchedulingPolicy.DISJOINT_INCREMENTAL_FCFS,
        SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN,
        SchedulingPolicy.MIXED_INCREMENTAL_SCAN,
        SchedulingPolicy.MIXED_GATED_SCAN,
        SchedulingPolicy.parse("period=mixed,subrounds=2"),
        SchedulingPolicy.parse("period=disjoint-d-first"),
        SchedulingPolicy.parse("period=disjoint-d-first,order=incremental-fcfs"),
        SchedulingPolicy.parse("period=disjoint-c-first,subrounds=3,order=scan"),
        SchedulingPolicy.parse("period=disjoint-c-first,subrounds=2,order=gated-incremental-scan"),
        SchedulingPolicy.parse("period=disjoint-c-first,limit=static-time:0.5,order=fcfs"),
        SchedulingPolicy.parse("period=mixed,limit=static-number:3"));

    private record Fragment(int stream, long position, long sizeBytes, long rotationNs) {
    }

    private record Arrival(long position, long sizeBytes, long arrivalNs, long rotationNs) {
    }

    /**
     * One random workload. {@code fitsSubrounds} is true when the C-requests of each half round
     * also fit half a round with the same margin.
     */
    private record RandomWorkload(long seed, long initialHead, List<List<Fragment>> rounds, List<Arrival> arrivals,
                                  boolean omniscient, boolean fitsSubrounds, double lambda) {
    }

    /** Figure 6 from anywhere: a full stroke into the sorted C-requests, the seeks between them, each cost. */
    private static long worstCaseNs(List<Fragment> fragments) {
        if (fragments.isEmpty()) {
            return 0;
        }
        long[] positions = fragments.stream().mapToLong(Fragment::position).sorted().toArray();
        long total = DISK.maxSeekNs();
        for (int i = 1; i < positions.length; i++) {
            total += DISK.seekNs(positions[i - 1], positions[i]);
        }
        for (Fragment fragment : fragments) {
            total += DISK.worstCaseRotationNs() + fragment.sizeBytes() * TestDisk.NS_PER_BYTE;
        }
        return total;
    }

    private static boolean fits(List<Fragment> fragments, long periodNs) {
        return worstCaseNs(fragments) + MAX_DISCRETE_SERVICE_NS <= periodNs;
    }

    private static long position(SplittableRandom random) {
        return random.nextInt(4) == 0 ? 1_000L * random.nextInt(100) : random.nextLong(DISK.capacityBytes());
    }

    /**
     * Up to 11 C-requests a round, dropped from the end until they fit the round (and, in half the
     * cases, each half round) with margin; Poisson arrivals at 2 to 200 a second, log-uniform, from
     * an idle disk to several times what it can serve; a quarter of the positions on a coarse
     * grid, so that requests share positions.
     */
    private static RandomWorkload workload(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean omniscient = random.nextInt(3) == 0;
        boolean halves = random.nextBoolean();
        int roundCount = 3 + random.nextInt(3);
        List<List<Fragment>> rounds = new ArrayList<>();
        boolean fitsSubrounds = true;
        for (int r = 0; r < roundCount; r++) {
            List<Fragment> fragments = new ArrayList<>();
            int n = random.nextInt(12);
            for (int i = 0; i < n; i++) {
                fragments.add(new Fragment(i, position(random), 1_000 + random.nextLong(MAX_CONTINUOUS_BYTES),
                    random.nextLong(DISK.worstCaseRotationNs())));
            }
            while (!fits(fragments, ROUND_NS)
                || halves && !(fits(fragments.subList(0, fragments.size() / 2), ROUND_NS / 2)
                    && fits(fragments.subList(fragments.size() / 2, fragments.size()), ROUND_NS / 2))) {
                fragments.remove(fragments.size() - 1);
            }
            fitsSubrounds &= fits(fragments.subList(0, fragments.size() / 2), ROUND_NS / 2)
                && fits(fragments.subList(fragments.size() / 2, fragments.size()), ROUND_NS / 2);
            rounds.add(fragments);
        }
        double lambda = Math.exp(Math.log(2) + random.nextDouble() * Math.log(200 / 2.0));
        List<Arrival> arrivals = new ArrayList<>();
        long t = 0;
        while (true) {
            t += Math.max(1, (long) (-Math.log(1 - random.nextDouble()) / lambda * 1e9));
            if (t >= roundCount * ROUND_NS) {
                break;
            }
            arrivals.add(new Arrival(position(random), 1 + random.nextLong(MAX_DISCRETE_BYTES), t,
                random.nextLong(DISK.worstCaseRotationNs())));
        }
        return new RandomWorkload(seed, random.nextLong(DISK.capacityBytes()), rounds, arrivals, omniscient,
            fitsSubrounds, lambda);
    }

    /** What one run of one policy over one workload saw. */
    private static final class Run implements ScheduleObserver {
        final SchedulingPolicy policy;
        final RandomWorkload workload;
        final DiskScheduler scheduler;
        final SplittableRandom rotations;
        final Map<Long, DiscreteRequest> offered = new HashMap<>();
        final Map<Long, Integer> discreteCompletions = new HashMap<>();
        final List<DiscreteRequest> discreteOrder = new ArrayList<>();
        final Map<Long, Integer> continuousReports = new HashMap<>();
        final Set<Long> continuousIds = new HashSet<>();
        final List<RoundSummary> rounds = new ArrayList<>();
        /** How many D-requests had completed when each round ended. */
        final List<Integer> discreteDoneAtRoundEnd = new ArrayList<>();
        long late;
        long discarded;
        int maxQueued;
        long nowNs;

        Run(SchedulingPolicy policy, RandomWorkload workload) {
            this.policy = policy;
            this.workload = workload;
            this.scheduler = new DiskScheduler(policy, DISK, ROUND_NS, workload.initialHead(), this);
            this.rotations = new SplittableRandom(workload.seed() * 31 + 7);
        }

        String where() {
            return "seed " + workload.seed() + ", " + policy.describe() + ", at " + nowNs + " ns";
        }

        @Override
        public void discreteCompleted(DiscreteRequest request, long nowNs) {
            discreteCompletions.merge(request.id(), 1, Integer::sum);
            discreteOrder.add(request);
        }

        @Override
        public void continuousCompleted(ContinuousRequest request, long nowNs) {
            continuousReports.merge(request.id(), 1, Integer::sum);
        }

        @Override
        public void glitch(ContinuousRequest request, long nowNs, boolean wasDiscarded) {
            continuousReports.merge(request.id(), 1, Integer::sum);
            if (wasDiscarded) {
                discarded++;
            } else {
                late++;
            }
        }

        @Override
        public void roundEnded(RoundSummary summary) {
            rounds.add(summary);
            discreteDoneAtRoundEnd.add(discreteOrder.size());
        }

        void run() {
            long nextId = 1_000_000;
            int arrivalIndex = 0;
            List<Arrival> arrivals = workload.arrivals();
            DiskRequest inFlight = null;
            long inFlightEndNs = 0;
            int roundCount = workload.rounds().size();
            for (int r = 0; r < roundCount; r++) {
                long startNs = r * ROUND_NS;
                long endNs = startNs + ROUND_NS;
                List<ContinuousRequest> continuous = new ArrayList<>();
                for (Fragment fragment : workload.rounds().get(r)) {
                    ContinuousRequest request = new ContinuousRequest(nextId++, fragment.stream(), fragment.position(),
                        fragment.sizeBytes());
                    if (workload.omniscient()) {
                        request.knownRotationNs(fragment.rotationNs());
                    }
                    continuousIds.add(request.id());
                    continuous.add(request);
                }
                nowNs = startNs;
                scheduler.startRound(startNs, continuous);
                checkSorted();
                while (true) {
                    if (inFlight == null) {
                        inFlight = next();
                        if (inFlight != null) {
                            long rotationNs = inFlight.rotationNs() >= 0
                                ? inFlight.rotationNs() : rotations.nextLong(DISK.worstCaseRotationNs());
                            inFlightEndNs = nowNs + DISK.seekNs(scheduler.headPosition(), inFlight.position())
                                + rotationNs + DISK.transferNs(inFlight.position(), inFlight.sizeBytes());
                        }
                    }
                    long arrivalNs = arrivalIndex < arrivals.size()
                        ? arrivals.get(arrivalIndex).arrivalNs() : Long.MAX_VALUE;
                    long eventNs = Math.min(arrivalNs, inFlight != null ? inFlightEndNs : scheduler.wakeUpNs());
                    if (eventNs >= endNs) {
                        break;
                    }
                    nowNs = eventNs;
                    if (inFlight != null && inFlightEndNs == nowNs) {
                        scheduler.ioCompleted(nowNs);
                        inFlight = null;
                    }
                    while (arrivalIndex < arrivals.size() && arrivals.get(arrivalIndex).arrivalNs() == nowNs) {
                        Arrival arrival = arrivals.get(arrivalIndex++);
                        DiscreteRequest request = new DiscreteRequest(arrivalIndex, arrivalIndex, arrival.position(),
                            arrival.sizeBytes(), arrival.arrivalNs());
                        if (workload.omniscient()) {
                            request.knownRotationNs(arrival.rotationNs());
                        }
                        offered.put(request.id(), request);
                        scheduler.offer(request);
                    }
                    maxQueued = Math.max(maxQueued, scheduler.queuedDiscrete());
                }
            }
            nowNs = roundCount * ROUND_NS;
            scheduler.startRound(nowNs, List.of());
            if (inFlight != null) {
                nowNs = Math.max(nowNs, inFlightEndNs);
                scheduler.ioCompleted(nowNs);
            }
        }

        /** One call of next(), with properties (a) and (c) checked around it. */
        private DiskRequest next() {
            ScanList scan = scheduler.scanList();
            List<DiskRequest> before = new ArrayList<>(scan.size());
            Set<Long> beforeIds = new HashSet<>();
            for (int i = 0; i < scan.size(); i++) {
                before.add(scan.get(i));
                beforeIds.add(scan.get(i).id());
            }
            long head = scheduler.headPosition();
            ScanDirection directionBefore = scheduler.direction();
            boolean boundary = nowNs - scheduler.wakeUpNs() >= 0;

            DiskRequest issued = scheduler.next(nowNs);

            checkSorted();
            ScanDirection direction = scheduler.direction();
            if (issued != null && !before.isEmpty() && !boundary && directionBefore != ScanDirection.UNDEFINED) {
                if (direction != directionBefore) {
                    fail("(a) the sweep turned from " + directionBefore + " to " + direction + " with requests left, "
                        + where());
                }
                if (!isAheadOrAt(issued.position(), head, direction)) {
                    fail("(a) " + issued + " lies behind the head at " + head + " in a " + direction + " sweep, "
                        + where());
                }
            }
            if (policy.ordering().isScan()) {
                long youngestEntered = -1;
                for (int i = 0; i < scan.size(); i++) {
                    DiskRequest request = scan.get(i);
                    if (!request.isContinuous() && !beforeIds.contains(request.id())) {
                        youngestEntered = Math.max(youngestEntered, ((DiscreteRequest) request).sequence());
                    }
                }
                if (issued instanceof DiscreteRequest d && !beforeIds.contains(d.id())) {
                    youngestEntered = Math.max(youngestEntered, d.sequence());
                }
                FifoQueue fifo = scheduler.fifo();
                for (DiscreteRequest older = fifo.first(); older != null && older.sequence() < youngestEntered;
                     older = fifo.next(older)) {
                    if (isAheadOrAt(older.position(), head, direction)) {
                        fail("(c) " + older + " was passed over though it lies ahead of the head at " + head
                            + " going " + direction + ", for a younger D-request, " + where());
                    }
                }
            }
            return issued;
        }

        private static boolean isAheadOrAt(long position, long head, ScanDirection direction) {
            return direction == ScanDirection.FORWARD ? position >= head : position <= head;
        }

        private void checkSorted() {
            ScanList scan = scheduler.scanList();
            for (int i = 1; i < scan.size(); i++) {
                if (scan.get(i - 1).position() > scan.get(i).position()) {
                    fail("(a) the scan list is out of order at " + i + ", " + where());
                }
            }
        }

        /** (b): each offered D-request completed exactly once or still waiting; each C-request reported once. */
        void checkConservation() {
            Set<Long> waiting = new HashSet<>();
            for (DiscreteRequest r = scheduler.fifo().first(); r != null; r = scheduler.fifo().next(r)) {
                assertTrue(waiting.add(r.id()), where());
            }
            for (int i = 0; i < scheduler.scanList().size(); i++) {
                assertTrue(waiting.add(scheduler.scanList().get(i).id()), where());
            }
            for (Map.Entry<Long, Integer> done : discreteCompletions.entrySet()) {
                assertEquals(1, done.getValue(), "D" + done.getKey() + " completed more than once, " + where());
                assertTrue(offered.containsKey(done.getKey()), where());
                assertFalse(waiting.contains(done.getKey()), "D" + done.getKey() + " done and waiting, " + where());
            }
            assertEquals(offered.size(), discreteCompletions.size() + waiting.size(),
                "offered D-requests = completed + waiting, " + where());
            assertEquals(continuousIds, continuousReports.keySet(), "every C-request is reported, " + where());
            for (Map.Entry<Long, Integer> reports : continuousReports.entrySet()) {
                assertEquals(1, reports.getValue(), "C" + reports.getKey() + " reported more than once, " + where());
            }
            assertEquals(late + discarded, scheduler.glitches(), "glitches() = late + dropped C-requests, " + where());
            assertEquals(discarded, scheduler.discardedContinuous(), "dropped C-requests, " + where());
            assertEquals(workload.rounds().size(), rounds.size(), "every round summed up once, " + where());
            long dropped = 0;
            for (int r = 0; r < rounds.size(); r++) {
                RoundSummary round = rounds.get(r);
                assertEquals(r * ROUND_NS, round.startNs(), where());
                assertEquals(workload.rounds().get(r).size(), round.continuousPlanned(), where());
                assertEquals(round.continuousPlanned(), round.continuousOnTime() + round.glitches(),
                    "planned = on time + late + dropped in round " + r + ", " + where());
                assertEquals(discreteDoneAtRoundEnd.get(r) - (r == 0 ? 0 : discreteDoneAtRoundEnd.get(r - 1)),
                    round.discreteServed(), "D-requests served in round " + r + ", " + where());
                dropped += round.continuousDropped();
            }
            assertEquals(discarded, dropped, "the dropped C-requests of all rounds, " + where());
        }
    }

    /** The policies of property (d): dynamic limitation, and at most 2 subrounds (the margin is checked per half). */
    private static boolean promisesNoGlitch(SchedulingPolicy policy) {
        return policy.limitation() == Limitation.DYNAMIC && policy.subrounds() <= 2;
    }

    /**
     * (a) within a sweep the served positions move only in the sweep's direction, and the scan
     * list is always sorted; (b) every D-request offered is completed exactly once or still
     * waiting, every C-request reported exactly once, and every round summed up with its
     * C-requests on time, late and dropped adding up to those it had; (c) D-requests are selected FCFS: in arrival
     * order under the FCFS orderings, and under SCAN none is passed over unless the sweep has
     * passed it (Figure 5; the fill stops at the first that does not fit, so none is passed over
     * for being too large).
     */
    @Test
    void sweepsAreMonotoneRequestsConservedAndSelectionFcfs() {
        for (int c = 0; c < CASES; c++) {
            RandomWorkload workload = workload(1_000 + c);
            for (SchedulingPolicy policy : POLICIES) {
                Run run = new Run(policy, workload);
                run.run();
                run.checkConservation();
                if (!policy.ordering().isScan()) {
                    for (int i = 1; i < run.discreteOrder.size(); i++) {
                        assertTrue(run.discreteOrder.get(i - 1).sequence() < run.discreteOrder.get(i).sequence(),
                            "(c) D-requests complete in arrival order, " + run.where());
                    }
                }
            }
        }
    }

    /**
     * (d) Section 5.3: when each round's C-requests fit it with margin (their worst case from any
     * head position plus one largest D-request), the dynamic policies never glitch, whatever the
     * D-load, overloads included. Subrounds split the C-requests by count (Section 2.2), so with 2
     * subrounds each half must fit half a round.
     */
    @Test
    void dynamicPoliciesNeverGlitchWhenTheCRequestsFitWithMargin() {
        Map<String, Integer> checked = new HashMap<>();
        Map<String, Integer> overloaded = new HashMap<>();
        for (int c = 0; c < CASES; c++) {
            RandomWorkload workload = workload(1_000 + c);
            for (SchedulingPolicy policy : POLICIES) {
                if (!promisesNoGlitch(policy) || policy.subrounds() == 2 && !workload.fitsSubrounds()) {
                    continue;
                }
                Run run = new Run(policy, workload);
                run.run();
                assertEquals(0, run.scheduler.glitches(), "(d) no glitch when the C-requests fit with margin, "
                    + "lambda " + workload.lambda() + ", " + run.where());
                checked.merge(policy.describe(), 1, Integer::sum);
                if (run.maxQueued > 50) {
                    overloaded.merge(policy.describe(), 1, Integer::sum);
                }
            }
        }
        for (SchedulingPolicy policy : POLICIES) {
            if (promisesNoGlitch(policy)) {
                assertTrue(checked.getOrDefault(policy.describe(), 0) >= CASES / 3,
                    "enough cases fit with margin for " + policy + ": " + checked);
                assertTrue(overloaded.getOrDefault(policy.describe(), 0) >= CASES / 10,
                    "the cases include overloads for " + policy + ": " + overloaded);
            }
        }
    }
}
