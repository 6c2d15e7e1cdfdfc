package io.rondo.benchmarks.preset.accuracy;

import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.admission.AdmissionPolicy;
import io.rondo.scheduler.admission.StreamDemand;
import io.rondo.scheduler.admission.ThroughputModel;
import io.rondo.scheduler.disk.DiskModel;
import org.agrona.concurrent.CachedNanoClock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * papers/000 Table 1 on Rondo: per row, MaxN found by raising N until the first glitch on the
 * emulated disk ({@link EmulatedRounds}: the real executor and scheduler in virtual time), what
 * each {@link AdmissionPolicy} admits of the same streams when they arrive one by one, and
 * whether the admitted streams then run without a glitch.
 *
 * <p>An N is clean only if it runs every round of every seed without a missed fragment; the
 * seeds vary the fragments' positions and the rotational delays, while the streams themselves
 * (VBR sizes, heterogeneous rates) come from one mix seed, so that admission judges the very
 * streams that run.
 */
public final class AdmissionAccuracy {

    /** The disk's name in the admission controller. */
    static final String DISK = "disk";

    /** No row takes more streams than this: a bound for the search, far above the paper disk's figures. */
    private static final int SEARCH_LIMIT = 4096;

    /**
     * What to measure.
     *
     * @param disk      the disk: the scheduler's model and the emulated timing
     * @param roundNs   the round length T
     * @param reserve   the share of each round kept for D-requests
     * @param rounds    rounds per run
     * @param runSeeds  the seeds of positions and rotations; an N must be clean under every one
     * @param mixSeed   the seed of the streams (VBR sizes, the H ladder's order)
     * @param rows      the rows to measure
     */
    public record Settings(DiskModel disk, long roundNs, double reserve, int rounds, List<Long> runSeeds,
                           long mixSeed, List<Table1Row> rows) {

        public Settings {
            if (rounds < 1 || runSeeds.isEmpty() || rows.isEmpty()) {
                throw new IllegalArgumentException("a measurement needs at least one round, one seed and one row");
            }
            runSeeds = List.copyOf(runSeeds);
            rows = List.copyOf(rows);
        }
    }

    /**
     * One policy's answer for a row.
     *
     * @param policy    {@code adm1}, {@code adm2}, {@code adm3}, or {@code xtream-adm2} (the paper's
     *                  Adm2: mean curve, every stream charged its peak fragment)
     * @param admitted  streams admitted one by one until the first rejection
     * @param ratio     admitted / MaxN
     * @param missed    fragments missed when the admitted streams run, over every seed
     */
    public record PolicyResult(String policy, int admitted, double ratio, long missed) {
    }

    /**
     * One row's measurements.
     *
     * @param row               the row, with the paper's figures
     * @param maxN              the most streams that ran clean
     * @param averageKBps       the mean bit rate of the MaxN streams (the H mix's varies with N)
     * @param missedAboveMaxN   fragments missed with MaxN + 1 streams, over every seed
     * @param tried             every N tried in the search, with the fragments it missed
     * @param policies          Adm1, Adm2, Adm3 and the paper's own Adm2
     */
    public record RowResult(Table1Row row, int maxN, double averageKBps, long missedAboveMaxN,
                            Map<Integer, Long> tried, List<PolicyResult> policies) {

        /** The result of one policy by its label. */
        public PolicyResult policy(String label) {
            return policies.stream().filter(p -> p.policy().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no policy " + label));
        }
    }

    private AdmissionAccuracy() {
    }

    /** Measures every row; {@code progress} hears of each row done. */
    public static List<RowResult> measure(Settings settings, Consumer<RowResult> progress) {
        List<RowResult> results = new ArrayList<>();
        for (Table1Row row : settings.rows()) {
            RowResult result = measureRow(settings, row);
            results.add(result);
            progress.accept(result);
        }
        return results;
    }

    /** Measures one row. */
    public static RowResult measureRow(Settings settings, Table1Row row) {
        StreamSet set = new StreamSet(row, settings.roundNs(), settings.rounds(), settings.mixSeed());
        Map<String, Integer> admitted = new java.util.LinkedHashMap<>();
        for (AdmissionPolicy policy : AdmissionPolicy.values()) {
            admitted.put(policy.label(), admitted(settings, set, policy));
        }
        admitted.put("xtream-adm2", xtreamAdm2(settings, set));
        Map<Integer, Long> missedByN = new java.util.TreeMap<>();
        MaxNSearch search = new MaxNSearch(n -> missedByN.computeIfAbsent(n, k -> missed(settings, set, k)) == 0,
            SEARCH_LIMIT);
        int firstGuess = admitted.values().stream().mapToInt(Integer::intValue).min().orElse(1);
        int maxN = search.maxN(firstGuess);
        long missedAbove = missedByN.computeIfAbsent(maxN + 1, k -> missed(settings, set, k));
        List<PolicyResult> policies = new ArrayList<>();
        admitted.forEach((label, n) -> policies.add(new PolicyResult(label, n, maxN == 0 ? 0 : (double) n / maxN,
            missedByN.computeIfAbsent(n, k -> missed(settings, set, k)))));
        return new RowResult(row, maxN, set.averageKBps(maxN, settings.roundNs()), missedAbove, missedByN, policies);
    }

    /** Fragments missed by {@code streams} streams of {@code set}, summed over every run seed. */
    static long missed(Settings settings, StreamSet set, int streams) {
        if (streams == 0) {
            return 0;
        }
        long missed = 0;
        for (long seed : settings.runSeeds()) {
            missed += EmulatedRounds.run(settings.disk(), set, streams, settings.roundNs(), settings.reserve(), seed)
                .missed();
        }
        return missed;
    }

    /** How many of the streams {@code policy} admits, offered one by one until the first rejection. */
    static int admitted(Settings settings, StreamSet set, AdmissionPolicy policy) {
        // The search takes no time that matters: on a clock standing still no admitted stream ends during it.
        AdmissionController controller = new AdmissionController(Map.of(DISK, settings.disk()), config(settings)
            .withPolicy(policy), new CachedNanoClock());
        int streams = 0;
        while (streams < SEARCH_LIMIT
            && controller.admit(StreamDemand.onDisk(streams, DISK, set.demand(streams))).accepted()) {
            streams++;
        }
        return streams;
    }

    /**
     * The paper's Adm2 (papers/000 Section 3.3: "the mean curve and maximum stream bit-rates"):
     * streams admitted while the mean-curve IO times of their peak fragments fit the round's
     * continuous share.
     */
    static int xtreamAdm2(Settings settings, StreamSet set) {
        ThroughputModel curves = ThroughputModel.of(settings.disk());
        long availableNs = config(settings).continuousNs();
        long usedNs = 0;
        int streams = 0;
        while (streams < SEARCH_LIMIT) {
            usedNs += curves.meanCurveNs(set.demand(streams).peakBytesPerRound());
            if (usedNs > availableNs) {
                break;
            }
            streams++;
        }
        return streams;
    }

    private static AdmissionConfig config(Settings settings) {
        return AdmissionConfig.defaults().withRound(Duration.ofNanos(settings.roundNs()))
            .withDiscreteReserve(settings.reserve()).withBufferCeilingBytes(Long.MAX_VALUE / 4);
    }
}
