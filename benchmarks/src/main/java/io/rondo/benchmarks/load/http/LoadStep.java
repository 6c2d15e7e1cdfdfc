package io.rondo.benchmarks.load.http;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one step of HTTP load measured.
 *
 * @param offeredPerSecond the open model's arrival rate; NaN for a closed loop
 * @param connections the most connections it used
 * @param measureNs how long it was measured
 * @param ok requests that arrived in the measured window and were answered 200 or 206
 * @param answeredInWindow requests answered 200 or 206 within the measured window, whenever they arrived
 * @param errors requests answered otherwise, or lost with their connection
 * @param timeouts requests not answered within the timeout (waiting or in flight)
 * @param bytes body bytes received
 * @param latencyUs the answered requests' latencies, microseconds, from each one's intended start
 */
public record LoadStep(double offeredPerSecond, int connections, long measureNs, long ok, long answeredInWindow,
                       long errors, long timeouts, long bytes, Histogram latencyUs) {

    /** Requests answered per second within the measured time: the server's throughput at this load. */
    public double achievedPerSecond() {
        return answeredInWindow * 1e9 / measureNs;
    }

    /** The latency at {@code percentile} (0-100), milliseconds; NaN if nothing was answered. */
    public double latencyMs(double percentile) {
        return latencyUs.getTotalCount() == 0 ? Double.NaN : latencyUs.getValueAtPercentile(percentile) / 1000.0;
    }

    /** The longest latency, milliseconds; NaN if nothing was answered. */
    public double maxMs() {
        return latencyUs.getTotalCount() == 0 ? Double.NaN : latencyUs.getMaxValue() / 1000.0;
    }

    /** True if the server kept up: it answered nearly all it was offered, with no error or timeout. */
    public boolean keptUp() {
        double offered = Double.isNaN(offeredPerSecond) ? achievedPerSecond() : offeredPerSecond;
        return errors == 0 && timeouts == 0 && achievedPerSecond() >= 0.97 * offered;
    }

    /** The step's figures for JSON. */
    public Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("model", Double.isNaN(offeredPerSecond) ? "closed" : "open");
        if (!Double.isNaN(offeredPerSecond)) {
            json.put("offeredPerSecond", Math.round(offeredPerSecond));
        }
        json.put("connections", connections);
        json.put("measuredSeconds", measureNs / 1e9);
        json.put("achievedPerSecond", Math.round(achievedPerSecond()));
        json.put("ok", ok);
        json.put("answeredInWindow", answeredInWindow);
        json.put("errors", errors);
        json.put("timeouts", timeouts);
        json.put("megabytesPerSecond", bytes / (measureNs / 1e9) / 1e6);
        Map<String, Object> latency = new LinkedHashMap<>();
        for (double percentile : new double[] {50, 90, 99, 99.9}) {
            latency.put("p" + (percentile == Math.rint(percentile) ? String.valueOf((int) percentile)
                : String.valueOf(percentile)), finite(latencyMs(percentile)));
        }
        latency.put("max", finite(maxMs()));
        json.put("latencyMs", latency);
        return json;
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
