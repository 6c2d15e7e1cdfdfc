package io.rondo.scheduler.sim;

/**
 * One simulated workload, papers/001 Section 5.2: {@code disks} disks, each with
 * {@code continuousPerDisk} C-requests per round, and D-requests arriving as a Poisson process
 * of rate {@code lambda} per second over the whole server, spread uniformly over the disks and
 * over each disk's positions.
 *
 * @param disks              disks in the server (the paper: 5)
 * @param continuousPerDisk  N, C-requests per disk per round
 * @param lambda             D-request arrivals per second, all disks together
 * @param continuousSize     C-request sizes (the paper: Gamma, 800000 B, sd 200000 B)
 * @param discreteSize       D-request sizes (the paper: Normal, 50000 B, sd 25000 B)
 * @param roundNs            the round length (the paper: 1 s)
 * @param rounds             rounds measured, after the warm-up
 * @param warmupRounds       rounds simulated first and not measured
 * @param seed               the seed; one seed gives one result, bit for bit
 * @param omniscientRotation whether the scheduler knows each rotational delay (Section 5.5)
 */
public record Workload(int disks, int continuousPerDisk, double lambda, SizeDistribution continuousSize,
                       SizeDistribution discreteSize, long roundNs, int rounds, int warmupRounds, long seed,
                       boolean omniscientRotation) {

    /** The C-request sizes of Table 2. */
    public static final SizeDistribution PAPER_CONTINUOUS = SizeDistribution.gamma(800_000, 200_000);
    /** The D-request sizes of Table 2. */
    public static final SizeDistribution PAPER_DISCRETE = SizeDistribution.normal(50_000, 25_000);
    /** The small D-request sizes of Table 3. */
    public static final SizeDistribution PAPER_SMALL_DISCRETE = SizeDistribution.normal(10_000, 5_000);

    public Workload {
        if (disks < 1) {
            throw new IllegalArgumentException("at least one disk is needed, was " + disks);
        }
        if (continuousPerDisk < 0) {
            throw new IllegalArgumentException("N must not be negative, was " + continuousPerDisk);
        }
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("the arrival rate must be a finite number >= 0, was " + lambda);
        }
        if (roundNs < 1_000_000) {
            throw new IllegalArgumentException("a round must last at least 1 ms, was " + roundNs + " ns");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("at least one measured round is needed, was " + rounds);
        }
        if (warmupRounds < 0) {
            throw new IllegalArgumentException("warm-up rounds must not be negative, was " + warmupRounds);
        }
    }

    /** The paper's workload (Tables 1 and 2) at one N and one arrival rate. */
    public static Workload paper(int continuousPerDisk, double lambda) {
        return new Workload(5, continuousPerDisk, lambda, PAPER_CONTINUOUS, PAPER_DISCRETE, 1_000_000_000L,
            600, 20, 1, false);
    }

    public Workload withLambda(double newLambda) {
        return new Workload(disks, continuousPerDisk, newLambda, continuousSize, discreteSize, roundNs, rounds,
            warmupRounds, seed, omniscientRotation);
    }

    public Workload withContinuousPerDisk(int n) {
        return new Workload(disks, n, lambda, continuousSize, discreteSize, roundNs, rounds, warmupRounds, seed,
            omniscientRotation);
    }

    public Workload withDiscreteSize(SizeDistribution size) {
        return new Workload(disks, continuousPerDisk, lambda, continuousSize, size, roundNs, rounds, warmupRounds,
            seed, omniscientRotation);
    }

    public Workload withRounds(int measured, int warmup) {
        return new Workload(disks, continuousPerDisk, lambda, continuousSize, discreteSize, roundNs, measured,
            warmup, seed, omniscientRotation);
    }

    public Workload withSeed(long newSeed) {
        return new Workload(disks, continuousPerDisk, lambda, continuousSize, discreteSize, roundNs, rounds,
            warmupRounds, newSeed, omniscientRotation);
    }

    public Workload withOmniscientRotation(boolean omniscient) {
        return new Workload(disks, continuousPerDisk, lambda, continuousSize, discreteSize, roundNs, rounds,
            warmupRounds, seed, omniscient);
    }

    public Workload withDisks(int count) {
        return new Workload(count, continuousPerDisk, lambda, continuousSize, discreteSize, roundNs, rounds,
            warmupRounds, seed, omniscientRotation);
    }
}
