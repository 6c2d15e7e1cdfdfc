package io.rondo.scheduler.sim;

import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.policy.SchedulingPolicy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.stream.DoubleStream;

/**
 * A sweep of simulated points: for each panel (one N) and each series (a policy, with worst-case
 * or omniscient rotation), the arrival rates of that panel. The named experiments reproduce the
 * figures of papers/001 Section 5.
 *
 * @param name     the short name ({@code fig9})
 * @param title    what the chart is titled
 * @param series   the curves of each panel
 * @param panels   one per N, with its arrival rates
 * @param base     the workload every point starts from; N, lambda and rotation vary
 */
public record Experiment(String name, String title, List<Series> series, List<Panel> panels, Workload base) {

    /** A curve: a policy, with the worst-case or the omniscient rotational delay. */
    public record Series(SchedulingPolicy policy, boolean omniscient) {
        public String label() {
            return omniscient ? policy.name() + " (omniscient)" : policy.name();
        }
    }

    /** One N and the arrival rates swept for it. */
    public record Panel(int n, double[] lambdas) {
        public Panel {
            lambdas = lambdas.clone();
        }

        @Override
        public double[] lambdas() {
            return lambdas.clone();
        }
    }

    public Experiment {
        series = List.copyOf(series);
        panels = List.copyOf(panels);
        if (series.isEmpty() || panels.isEmpty()) {
            throw new IllegalArgumentException("an experiment needs at least one series and one panel");
        }
    }

    /** The named experiments. */
    public static final List<String> NAMES = List.of("fig9", "fig10", "fig11");

    /** Figure 9: mean D-response time of the four policies, Table 2 sizes, N = 3 and N = 7. */
    public static Experiment fig9() {
        return new Experiment("fig9", "Mean response time of D-requests (papers/001 Figure 9)",
            presets(false), List.of(new Panel(3, range(30, 330, 30)), new Panel(7, range(10, 130, 10))),
            Workload.paper(3, 0));
    }

    /** Figure 10: the same with the small D-requests of Table 3. */
    public static Experiment fig10() {
        return new Experiment("fig10", "Mean response time of small D-requests (papers/001 Figure 10)",
            presets(false), List.of(new Panel(3, range(50, 650, 50)), new Panel(7, range(20, 280, 20))),
            Workload.paper(3, 0).withDiscreteSize(Workload.PAPER_SMALL_DISCRETE));
    }

    /** Figure 11: worst-case against omniscient rotational delay, Table 3 sizes. */
    public static Experiment fig11() {
        List<Series> series = List.of(
            new Series(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, false),
            new Series(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, true),
            new Series(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, false),
            new Series(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, true));
        return new Experiment("fig11", "Impact of the worst-case rotational delay (papers/001 Figure 11)",
            series, List.of(new Panel(3, range(50, 650, 50)), new Panel(7, range(20, 280, 20))),
            Workload.paper(3, 0).withDiscreteSize(Workload.PAPER_SMALL_DISCRETE));
    }

    /** A named experiment. */
    public static Experiment named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "fig9" -> fig9();
            case "fig10" -> fig10();
            case "fig11" -> fig11();
            default -> throw new IllegalArgumentException("unknown experiment '" + name + "'; choose one of "
                + String.join(", ", NAMES) + ", or custom");
        };
    }

    /** The same sweep from another base workload (seed, duration, disks, sizes). */
    public Experiment withBase(Workload newBase) {
        return new Experiment(name, title, series, panels, newBase);
    }

    /** How many points {@link #run} simulates. */
    public int pointCount() {
        return series.size() * panels.stream().mapToInt(panel -> panel.lambdas.length).sum();
    }

    /**
     * Simulates every point on {@code threads} threads and returns the results panel by panel,
     * series by series, rate by rate, whatever order they finished in; {@code progress} is told
     * after each point.
     */
    public List<SimulationResult> run(DiskModel disk, int threads, IntConsumer progress) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), runnable -> {
            Thread thread = new Thread(runnable, "rondo-simulate");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<SimulationResult>> futures = new ArrayList<>();
            for (Panel panel : panels) {
                for (Series curve : series) {
                    for (double lambda : panel.lambdas) {
                        Workload workload = base.withContinuousPerDisk(panel.n).withLambda(lambda)
                            .withOmniscientRotation(curve.omniscient);
                        futures.add(pool.submit(() -> {
                            SimulationResult result = Simulator.run(curve.policy, disk, workload);
                            progress.accept(1);
                            return result;
                        }));
                    }
                }
            }
            List<SimulationResult> results = new ArrayList<>(futures.size());
            for (Future<SimulationResult> future : futures) {
                results.add(future.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the simulation was interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a simulated point failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<Series> presets(boolean omniscient) {
        return SchedulingPolicy.PRESETS.stream().map(policy -> new Series(policy, omniscient)).toList();
    }

    /** {@code from}, {@code from + step}, ... up to and including {@code to}. */
    public static double[] range(double from, double to, double step) {
        if (!(step > 0) || to < from) {
            throw new IllegalArgumentException("a range needs from <= to and a positive step, was "
                + from + ":" + to + ":" + step);
        }
        int count = (int) Math.floor((to - from) / step + 1e-9) + 1;
        return DoubleStream.iterate(from, value -> value + step).limit(count)
            .map(value -> Math.round(value * 1e6) / 1e6).toArray();
    }
}
