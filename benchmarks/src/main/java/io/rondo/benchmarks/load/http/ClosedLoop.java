package io.rondo.benchmarks.load.http;

import io.rondo.benchmarks.jmh.HttpGetBenchmark;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The closed-loop saturation throughput of one server, measured by JMH running {@link
 * HttpGetBenchmark} in a JVM of its own (one fork): the load generator is apart from the bench's
 * own threads, JIT-warmed by JMH's warm-up iteration, and its score carries JMH's error bound.
 *
 * @param perSecond the mean score, requests a second
 * @param error the score's 99.9 % confidence half-width (NaN with a single iteration)
 * @param iterations the measured iterations, requests a second each
 */
public record ClosedLoop(double perSecond, double error, List<Double> iterations) {

    /**
     * Measures {@code url}.
     *
     * @param paths a file of request paths, one a line
     * @param connections the closed loop's connections
     * @param warmupNs JMH's warm-up (one iteration)
     * @param iterationNs each measured iteration's length
     * @param iterations how many measured iterations
     * @param output where JMH's own output goes (its log), or null for none
     */
    public static ClosedLoop measure(String url, Path paths, int connections, long warmupNs, long iterationNs,
                                     int iterations, Path output) throws IOException {
        OptionsBuilder builder = new OptionsBuilder();
        builder.include(HttpGetBenchmark.class.getName() + ".answers$")
            .param("url", url)
            .param("paths", paths.toAbsolutePath().toString())
            .param("connections", Integer.toString(connections))
            .threads(1)
            .forks(1)
            .warmupIterations(warmupNs > 0 ? 1 : 0)
            .warmupTime(TimeValue.milliseconds(Math.max(1, TimeUnit.NANOSECONDS.toMillis(warmupNs))))
            .measurementIterations(iterations)
            .measurementTime(TimeValue.milliseconds(TimeUnit.NANOSECONDS.toMillis(iterationNs)))
            .shouldFailOnError(true)
            .jvmArgsAppend("-Xmx512m")
            .verbosity(VerboseMode.NORMAL);
        if (output != null) {
            builder.output(output.toString());
        }
        Options options = builder.build();
        Collection<RunResult> results;
        try {
            results = new Runner(options).run();
        } catch (RunnerException e) {
            throw new IOException("JMH could not measure " + url + ": " + e.getMessage()
                + (output == null ? "" : " (its log: " + output + ")"), e);
        }
        if (results.isEmpty()) {
            throw new IOException("JMH measured nothing at " + url + (output == null ? "" : "; see " + output));
        }
        RunResult run = results.iterator().next();
        Result<?> primary = run.getPrimaryResult();
        List<Double> each = run.getBenchmarkResults().stream()
            .flatMap(result -> result.getIterationResults().stream())
            .map(iteration -> iteration.getPrimaryResult().getScore()).toList();
        return new ClosedLoop(primary.getScore(), primary.getScoreError(), each);
    }

    /** Its figures for JSON. */
    public Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("model", "closed (JMH)");
        json.put("perSecond", Math.round(perSecond));
        json.put("error", Double.isFinite(error) ? Math.round(error) : null);
        json.put("iterations", iterations.stream().map(Math::round).toList());
        return json;
    }

    /** Writes {@code paths}, one a line, to {@code file} for {@link HttpGetBenchmark}. */
    public static Path writePaths(List<String> paths, Path file) throws IOException {
        Files.write(file, paths, StandardCharsets.UTF_8);
        return file;
    }
}
