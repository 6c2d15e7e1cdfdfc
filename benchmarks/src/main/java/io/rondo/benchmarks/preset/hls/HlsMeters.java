package io.rondo.benchmarks.preset.hls;

import io.rondo.server.launch.ServeProcess;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Rondo's own HLS meters, from its admin port's {@code /metrics}: its sessions in service
 * ({@code rondo_hls_active}) and the parts it answered from a session's read-ahead or by a plain
 * D-request ({@code rondo_hls_parts_total{source="memory"|"disk"}}). A meter the server does not
 * have is absent, not zero: the bench does not infer what the server can say.
 */
final class HlsMeters {

    static final String SESSIONS = "rondo_hls_active";
    static final String PARTS = "rondo_hls_parts_total";

    private static final Duration LIMIT = Duration.ofSeconds(10);

    /** The parts answered so far from memory and from disk; -1 where the server has no such meter. */
    record Parts(long memory, long disk) {

        /** The parts answered since {@code before}; -1 where either has no such meter. */
        Parts since(Parts before) {
            return new Parts(memory < 0 || before.memory < 0 ? -1 : memory - before.memory,
                disk < 0 || before.disk < 0 ? -1 : disk - before.disk);
        }
    }

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(LIMIT).build();
    private final ServeProcess rondo;

    HlsMeters(ServeProcess rondo) {
        this.rondo = rondo;
    }

    /** The parts counted so far. */
    Parts parts() throws IOException {
        String text = scrape();
        return new Parts(count(text, "memory"), count(text, "disk"));
    }

    private static long count(String metrics, String source) {
        OptionalDouble value = sample(metrics, PARTS + "{source=\"" + source + "\"}");
        return value.isPresent() ? (long) value.getAsDouble() : -1;
    }

    /** The HLS sessions in service; empty where the server has no such meter. */
    OptionalDouble sessions() throws IOException {
        return sample(scrape(), SESSIONS);
    }

    private String scrape() throws IOException {
        try {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(rondo.adminUrl() + "/metrics"))
                .header("Authorization", "Bearer " + rondo.adminToken()).timeout(LIMIT).build(),
                HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IOException("GET /metrics answered " + answer.statusCode());
            }
            return answer.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading Rondo's /metrics", e);
        }
    }

    /**
     * The value of the sample named {@code series} (a metric's name with its labels as the text
     * format writes them, e.g. {@code m{source="disk"}}), its labels in any order; empty if absent.
     */
    static OptionalDouble sample(String metrics, String series) {
        int brace = series.indexOf('{');
        String name = brace < 0 ? series : series.substring(0, brace);
        Set<String> wanted = labels(brace < 0 ? "" : series.substring(brace + 1, series.length() - 1));
        for (String line : metrics.lines().toList()) {
            if (line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            String key = line.substring(0, space).strip();
            int open = key.indexOf('{');
            String keyName = open < 0 ? key : key.substring(0, open);
            if (!keyName.equals(name)) {
                continue;
            }
            Set<String> have = labels(open < 0 ? "" : key.substring(open + 1, key.length() - 1));
            if (have.containsAll(wanted)) {
                return OptionalDouble.of(Double.parseDouble(line.substring(space + 1)));
            }
        }
        return OptionalDouble.empty();
    }

    private static Set<String> labels(String list) {
        Set<String> labels = new HashSet<>();
        for (String label : list.split(",")) {
            if (!label.isBlank()) {
                labels.add(label.strip());
            }
        }
        return labels;
    }
}
