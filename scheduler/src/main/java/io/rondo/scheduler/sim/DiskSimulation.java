package io.rondo.scheduler.sim;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiscreteRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.ScheduleObserver;
import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.policy.SchedulingPolicy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One disk of the simulation testbed (papers/001 Figure 8): its scheduler, driven in virtual
 * time, in front of a modelled disk whose IOs take seek, rotational delay and transfer time.
 *
 * <p>The paper's D-Load process spreads one Poisson stream of rate {@code lambda} uniformly over
 * the disks; that is the same, in distribution, as an independent Poisson stream of rate
 * {@code lambda / disks} per disk, which is what each disk draws here from its own random
 * source. So disks can be simulated one after the other, and one seed gives one result.
 *
 * <p>The modelled disk draws each rotational delay uniformly from one revolution when the IO
 * starts. In the omniscient variant (Section 5.5) the delay is drawn when the request is made
 * and told to the scheduler, which then estimates with it instead of a full revolution.
 */
public final class DiskSimulation implements ScheduleObserver {

    /** Past this many waiting D-requests on one disk, the point is saturated and the run stops. */
    static final int BACKLOG_LIMIT = 20_000;

    private final Workload workload;
    private final DiskModel disk;
    private final DiskScheduler scheduler;
    private final SplittableRandom random;
    private final double meanInterarrivalNs;
    private final long warmupEndNs;
    private final List<ContinuousRequest> roundRequests = new ArrayList<>();
    private final ResponseTimes responseTimes = new ResponseTimes();
    private final long[] glitchesByStream;

    private long nowNs;
    private long roundStartNs;
    private int round;
    private long nextArrivalNs;
    private long nextId;
    private DiskRequest inFlight;
    private long inFlightEndNs;
    private long headPosition;

    private long measuredGlitches;
    private long measuredDiscreteCompleted;
    private long busyAtWarmupEndNs;
    private long continuousBusyAtWarmupEndNs;
    private long arrivalsMeasured;

    public DiskSimulation(SchedulingPolicy policy, DiskModel disk, Workload workload, int diskIndex) {
        this.workload = workload;
        this.disk = disk;
        this.random = new SplittableRandom(mix(workload.seed(), diskIndex));
        this.headPosition = (long) (random.nextDouble() * disk.capacityBytes());
        this.scheduler = new DiskScheduler(policy, disk, workload.roundNs(), headPosition, this);
        double perDiskRate = workload.lambda() / workload.disks();
        this.meanInterarrivalNs = perDiskRate > 0 ? 1e9 / perDiskRate : Double.POSITIVE_INFINITY;
        this.warmupEndNs = workload.warmupRounds() * workload.roundNs();
        this.glitchesByStream = new long[workload.continuousPerDisk()];
        this.nextArrivalNs = drawInterarrival(0);
    }

    /** Simulates the next round, from its start to the start of the one after. */
    public void runRound() {
        roundStartNs = (long) round * workload.roundNs();
        long roundEndNs = roundStartNs + workload.roundNs();
        nowNs = roundStartNs;
        if (roundStartNs == warmupEndNs) {
            busyAtWarmupEndNs = scheduler.busyNs();
            continuousBusyAtWarmupEndNs = scheduler.continuousBusyNs();
        }
        scheduler.startRound(roundStartNs, makeContinuousRequests());
        while (true) {
            if (inFlight == null) {
                issue(scheduler.next(nowNs));
            }
            long completionNs = inFlight != null ? inFlightEndNs : Long.MAX_VALUE;
            long eventNs = Math.min(nextArrivalNs, inFlight != null ? completionNs : scheduler.wakeUpNs());
            if (eventNs - roundEndNs > 0 || eventNs == roundEndNs && completionNs != roundEndNs) {
                break;
            }
            nowNs = eventNs;
            if (completionNs == nowNs) {
                inFlight = null;
                scheduler.ioCompleted(nowNs);
                if (nowNs == roundEndNs) {
                    break;
                }
            }
            while (nextArrivalNs == nowNs) {
                arrive();
            }
        }
        round++;
    }

    /** The number of rounds simulated so far, warm-up included. */
    public int roundsRun() {
        return round;
    }

    /** D-requests waiting: in the fifo queue or chosen for the sweep. */
    public int backlog() {
        return scheduler.queuedDiscrete() + scheduler.scanListSize();
    }

    public DiskScheduler scheduler() {
        return scheduler;
    }

    ResponseTimes responseTimes() {
        return responseTimes;
    }

    long measuredGlitches() {
        return measuredGlitches;
    }

    long measuredDiscreteCompleted() {
        return measuredDiscreteCompleted;
    }

    long arrivalsMeasured() {
        return arrivalsMeasured;
    }

    /** Glitches of each stream on this disk during the measured rounds. */
    public long[] glitchesByStream() {
        return glitchesByStream.clone();
    }

    long measuredBusyNs() {
        return scheduler.busyNs() - busyAtWarmupEndNs;
    }

    long measuredContinuousBusyNs() {
        return scheduler.continuousBusyNs() - continuousBusyAtWarmupEndNs;
    }

    @Override
    public void discreteCompleted(DiscreteRequest request, long completedNs) {
        if (request.arrivalNs() - warmupEndNs >= 0) {
            responseTimes.add(completedNs - request.arrivalNs());
        }
        if (completedNs - warmupEndNs > 0) {
            measuredDiscreteCompleted++;
        }
    }

    @Override
    public void glitch(ContinuousRequest request, long glitchNs, boolean discarded) {
        if (request.deadlineNs() - warmupEndNs > 0) {
            measuredGlitches++;
            // The simulator numbers its streams 0 .. continuousPerDisk - 1, so an id is also an index.
            glitchesByStream[Math.toIntExact(request.streamId())]++;
        }
    }

    private List<ContinuousRequest> makeContinuousRequests() {
        roundRequests.clear();
        for (int stream = 0; stream < workload.continuousPerDisk(); stream++) {
            ContinuousRequest request = new ContinuousRequest(nextId++, stream, randomPosition(),
                workload.continuousSize().sample(random));
            if (workload.omniscientRotation()) {
                request.knownRotationNs(drawRotation());
            }
            roundRequests.add(request);
        }
        return roundRequests;
    }

    private void arrive() {
        long id = nextId++;
        DiscreteRequest request = new DiscreteRequest(id, id, randomPosition(), workload.discreteSize().sample(random),
            nextArrivalNs);
        if (workload.omniscientRotation()) {
            request.knownRotationNs(drawRotation());
        }
        if (nextArrivalNs - warmupEndNs >= 0) {
            arrivalsMeasured++;
        }
        scheduler.offer(request);
        nextArrivalNs = drawInterarrival(nextArrivalNs);
    }

    private void issue(DiskRequest request) {
        if (request == null) {
            return;
        }
        long rotationNs = request.rotationNs() >= 0 ? request.rotationNs() : drawRotation();
        long serviceNs = disk.seekNs(headPosition, request.position()) + rotationNs
            + disk.transferNs(request.position(), request.sizeBytes());
        headPosition = request.position();
        inFlight = request;
        inFlightEndNs = nowNs + Math.max(1, serviceNs);
    }

    private long randomPosition() {
        return (long) (random.nextDouble() * disk.capacityBytes());
    }

    private long drawRotation() {
        return (long) (random.nextDouble() * disk.worstCaseRotationNs());
    }

    private long drawInterarrival(long fromNs) {
        if (Double.isInfinite(meanInterarrivalNs)) {
            return Long.MAX_VALUE;
        }
        double gapNs = -Math.log(1 - random.nextDouble()) * meanInterarrivalNs;
        return fromNs + Math.max(1, (long) gapNs);
    }

    private static long mix(long seed, int diskIndex) {
        long z = seed * 0x9E3779B97F4A7C15L + diskIndex * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
