package io.rondo.benchmarks.load.stream;

import io.rondo.benchmarks.load.stream.LoadResults.Outcome;
import io.rondo.benchmarks.load.stream.LoadResults.StreamRecord;
import io.rondo.benchmarks.load.stream.LoadResults.Tally;
import io.rondo.client.protocol.RejectReason;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of a stream load run, on one screen and as JSON: streams admitted and rejected
 * (by reason, with the server's first message), how streams ended, fragments late and how late,
 * initial latency, the receive rate, and whether the streams followed the clock. It reports; it
 * does not judge, except to say plainly when a fragment was late.
 */
public final class LoadSummary {

    private static final double NS_PER_MS = 1e6;
    private static final double NS_PER_S = 1e9;

    private final LoadSettings settings;
    private final LoadResults results;
    private final List<StreamRecord> streams;
    private final Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    private final Map<Outcome, String> firstDetails = new EnumMap<>(Outcome.class);
    private final long admitted;
    private final long bytes;
    private final long missingFragments;
    private final long sequenceFaults;
    private final double[] ratios;
    /** Streams that reconnected at least once, their reconnections and gaps, and the longest gap. */
    private final long reconnected;
    private final long reconnects;
    private final long gaps;
    private final long longestGapNs;
    private final long[] bytesBySecond;

    private LoadSummary(LoadSettings settings, LoadResults results) {
        this.settings = settings;
        this.results = results;
        this.streams = results.streams();
        long admittedStreams = 0;
        long bytesReceived = 0;
        long missing = 0;
        long faults = 0;
        long[] lost = new long[4];
        List<Double> followed = new ArrayList<>();
        for (StreamRecord s : streams) {
            outcomes.merge(s.outcome(), 1L, Long::sum);
            if (s.detail() != null) {
                firstDetails.putIfAbsent(s.outcome(), s.detail());
            }
            admittedStreams += s.admitted() ? 1 : 0;
            bytesReceived += s.bytes();
            missing += s.missingFragments();
            faults += s.sequenceFaults();
            lost[0] += s.reconnects() > 0 ? 1 : 0;
            lost[1] += s.reconnects();
            lost[2] += s.gaps();
            lost[3] = Math.max(lost[3], s.longestGapNs());
            if (!Double.isNaN(s.mediaWallRatio())) {
                followed.add(s.mediaWallRatio());
            }
        }
        this.admitted = admittedStreams;
        this.bytes = bytesReceived;
        this.missingFragments = missing;
        this.sequenceFaults = faults;
        this.reconnected = lost[0];
        this.reconnects = lost[1];
        this.gaps = lost[2];
        this.longestGapNs = lost[3];
        this.ratios = followed.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        this.bytesBySecond = results.bytesBySecond();
    }

    /** The figures of a run that has ended. */
    public static LoadSummary of(LoadSettings settings, LoadResults results) {
        return new LoadSummary(settings, results);
    }

    /** Streams admitted (an OPEN answered with ACCEPT). */
    public long admitted() {
        return admitted;
    }

    /** Streams that ended rejected. */
    public long rejected() {
        return outcomes.getOrDefault(Outcome.REJECTED, 0L);
    }

    /** Fragments whose last byte arrived after their deadline. */
    public long lateFragments() {
        return results.lateness().lateCount();
    }

    /** The share of fragments that were late, 0 to 1; 0 if none arrived. */
    double lateShare() {
        long n = results.lateness().count();
        return n == 0 ? 0 : (double) results.lateness().lateCount() / n;
    }

    /** The median of the streams' media/wall ratios; NaN if no stream had three DATA. */
    double mediaWallRatioMedian() {
        return quantile(ratios, 0.5);
    }

    /** The mean receive rate over the seconds from the first DATA to the last, in bits per second. */
    double meanReceiveBitsPerSecond() {
        int first = 0;
        while (first < bytesBySecond.length && bytesBySecond[first] == 0) {
            first++;
        }
        if (first == bytesBySecond.length) {
            return 0;
        }
        long sum = 0;
        for (int i = first; i < bytesBySecond.length; i++) {
            sum += bytesBySecond[i];
        }
        return sum * 8.0 / (bytesBySecond.length - first);
    }

    /** The most bits received in one second of the run. */
    double peakReceiveBitsPerSecond() {
        return Arrays.stream(bytesBySecond).max().orElse(0) * 8.0;
    }

    /** The summary for people: one screen. */
    public String text() {
        StringBuilder out = new StringBuilder();
        Lateness lateness = results.lateness();
        line(out, "Rondo stream load: %s", settings.url());
        line(out, "  %d streams opened over %s, each playing %s; profile %s/s, buffer %s; retry %s; %d client"
                + " thread%s", settings.streams(), seconds(settings.rampNs()), seconds(settings.durationNs()),
            size(settings.profile().maxReceiveBytesPerSecond()), size(settings.profile().bufferBytes()),
            settings.retry() ? "on" : "off", settings.threads(), settings.threads() == 1 ? "" : "s");
        line(out, "");
        line(out, "streams      %d admitted, %d rejected, %d failed or unanswered, of %d (%d opened)", admitted,
            rejected(), failed(), settings.streams(), results.openedSoFar());
        for (Map.Entry<RejectReason, Tally> r : results.rejects().entrySet()) {
            line(out, "  REJECT     %-18s %6d  first: %s", r.getKey(), r.getValue().count(),
                quoted(r.getValue().firstMessage()));
        }
        for (Map.Entry<Integer, Tally> e : results.errors().entrySet()) {
            line(out, "  ERROR      %-18s %6d  first: %s", LoadResults.errorName(e.getKey()), e.getValue().count(),
                quoted(e.getValue().firstMessage()));
        }
        StringBuilder ended = new StringBuilder();
        for (Map.Entry<Outcome, Long> o : outcomes.entrySet()) {
            ended.append(ended.length() == 0 ? "" : ", ").append(o.getKey().label()).append(' ').append(o.getValue());
        }
        line(out, "  ended      %s", ended.length() == 0 ? "none" : ended);
        for (Outcome o : new Outcome[] {Outcome.LOST, Outcome.PROTOCOL_FAULT, Outcome.CONNECT_FAILED,
            Outcome.NO_ANSWER}) {
            if (firstDetails.containsKey(o)) {
                line(out, "  %-10s first: %s", o.label(), firstDetails.get(o));
            }
        }
        if (reconnects > 0) {
            line(out, "reconnect    %d streams lost their connection and opened again %d times; %d gaps, the"
                + " longest %s (from the loss to the next DATA)", reconnected, reconnects, gaps, ms(longestGapNs));
        }
        line(out, "fragments    %d received, %s; %d late (%.2f%%)%s", lateness.count(), size(bytes),
            lateness.lateCount(), 100 * lateShare(), missingFragments + sequenceFaults == 0 ? ""
                : String.format(Locale.ROOT, "; %d missing, %d out of sequence", missingFragments, sequenceFaults));
        if (lateness.count() == 0) {
            line(out, "  no fragment arrived");
        } else if (lateness.lateCount() == 0 && missingFragments + sequenceFaults == 0) {
            line(out, "  every fragment arrived, in order, and none was late");
        } else {
            if (lateness.lateCount() > 0) {
                line(out, "  LATE: %d of %d fragments arrived after their deadline", lateness.lateCount(),
                    lateness.count());
            }
            if (missingFragments > 0) {
                line(out, "  MISSING: %d fragments of admitted streams never arrived", missingFragments);
            }
            if (sequenceFaults > 0) {
                line(out, "  OUT OF SEQUENCE: %d fragments", sequenceFaults);
            }
        }
        if (lateness.count() > 0) {
            line(out, "lateness     p50 %s  p99 %s  p99.9 %s  max %s  (arrival - deadline; negative is early)",
                ms(lateness.percentileNs(50)), ms(lateness.percentileNs(99)), ms(lateness.percentileNs(99.9)),
                ms(lateness.maxNs()));
        }
        Histogram toAccept = results.toAccept();
        Histogram toData = results.toFirstData();
        line(out, "initial      OPEN to ACCEPT p50 %s p99 %s max %s; to first DATA p50 %s p99 %s max %s",
            ms(toAccept, 50), ms(toAccept, 99), ms(toAccept, 100), ms(toData, 50), ms(toData, 99), ms(toData, 100));
        line(out, "receive      %.1f Mbit/s mean, %.1f Mbit/s peak second; streams of %.2f Mbit/s (ACCEPT)",
            meanReceiveBitsPerSecond() / 1e6, peakReceiveBitsPerSecond() / 1e6, streamBitsPerSecond() / 1e6);
        line(out, "media/wall   p50 %s  min %s  max %s over %d streams  (media s per wall s, from the second"
            + " DATA)", ratio(quantile(ratios, 0.5)), ratio(quantile(ratios, 0)), ratio(quantile(ratios, 1)),
            ratios.length);
        Histogram loop = results.loopDelays();
        line(out, "client       event-loop delay p99 %s, max %s at %s  (a fragment the client reads late looks"
            + " late too)", ms(loop, 99), ms(loop, 100), seconds(results.worstLoopDelayAfterStartNs()));
        return out.toString();
    }

    /** The same figures, and one entry per stream, as a tree for a JSON writer. */
    public Map<String, Object> json() {
        Lateness lateness = results.lateness();
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("url", settings.url());
        run.put("streams", settings.streams());
        run.put("rampSeconds", settings.rampNs() / NS_PER_S);
        run.put("durationSeconds", settings.durationNs() / NS_PER_S);
        run.put("maxReceiveBytesPerSecond", settings.profile().maxReceiveBytesPerSecond());
        run.put("bufferBytes", settings.profile().bufferBytes());
        run.put("retry", settings.retry());
        run.put("threads", settings.threads());
        root.put("run", run);

        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("requested", settings.streams());
        counts.put("opened", results.openedSoFar());
        counts.put("admitted", admitted);
        counts.put("rejected", rejected());
        counts.put("failed", failed());
        Map<String, Object> ended = new LinkedHashMap<>();
        outcomes.forEach((o, n) -> ended.put(o.name(), tally(n, firstDetails.get(o))));
        counts.put("ended", ended);
        root.put("streams", counts);

        Map<String, Object> rejects = new LinkedHashMap<>();
        results.rejects().forEach((r, t) -> rejects.put(r.name(), tally(t.count(), t.firstMessage())));
        root.put("rejects", rejects);
        Map<String, Object> errors = new LinkedHashMap<>();
        results.errors().forEach((c, t) -> errors.put(LoadResults.errorName(c), tally(t.count(), t.firstMessage())));
        root.put("errors", errors);

        Map<String, Object> frags = new LinkedHashMap<>();
        frags.put("received", lateness.count());
        frags.put("bytes", bytes);
        frags.put("late", lateness.lateCount());
        frags.put("lateShare", lateShare());
        frags.put("missing", missingFragments);
        frags.put("outOfSequence", sequenceFaults);
        root.put("fragments", frags);
        Map<String, Object> lostConnections = new LinkedHashMap<>();
        lostConnections.put("streams", reconnected);
        lostConnections.put("reconnects", reconnects);
        lostConnections.put("gaps", gaps);
        lostConnections.put("longestGapMs", longestGapNs / NS_PER_MS);
        root.put("reconnects", lostConnections);

        Map<String, Object> late = new LinkedHashMap<>();
        boolean any = lateness.count() > 0;
        late.put("min", any ? lateness.minNs() / NS_PER_MS : null);
        for (double p : new double[] {50, 90, 99, 99.9}) {
            late.put("p" + (p == Math.rint(p) ? String.valueOf((int) p) : String.valueOf(p)),
                any ? lateness.percentileNs(p) / NS_PER_MS : null);
        }
        late.put("max", any ? lateness.maxNs() / NS_PER_MS : null);
        root.put("latenessMs", late);

        Map<String, Object> initial = new LinkedHashMap<>();
        initial.put("toAccept", percentilesMs(results.toAccept()));
        initial.put("toFirstData", percentilesMs(results.toFirstData()));
        root.put("initialLatencyMs", initial);

        Map<String, Object> receive = new LinkedHashMap<>();
        receive.put("meanMbitPerSecond", meanReceiveBitsPerSecond() / 1e6);
        receive.put("peakMbitPerSecond", peakReceiveBitsPerSecond() / 1e6);
        receive.put("streamMbitPerSecond", streamBitsPerSecond() / 1e6);
        List<Double> perSecond = new ArrayList<>();
        for (long b : bytesBySecond) {
            perSecond.add(b * 8 / 1e6);
        }
        receive.put("mbitEachSecond", perSecond);
        root.put("receive", receive);

        Map<String, Object> follow = new LinkedHashMap<>();
        follow.put("streams", ratios.length);
        follow.put("p50", number(quantile(ratios, 0.5)));
        follow.put("min", number(quantile(ratios, 0)));
        follow.put("max", number(quantile(ratios, 1)));
        root.put("mediaWallRatio", follow);

        Map<String, Object> loop = percentilesMs(results.loopDelays());
        loop.put("maxAtSeconds", results.worstLoopDelayAfterStartNs() / NS_PER_S);
        root.put("clientLoopDelayMs", loop);

        List<Map<String, Object>> each = new ArrayList<>();
        for (StreamRecord s : streams) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("index", s.index());
            one.put("outcome", s.outcome().name());
            one.put("detail", s.detail());
            one.put("admitted", s.admitted());
            one.put("rejects", s.rejects());
            one.put("fragments", s.fragments());
            one.put("bytes", s.bytes());
            one.put("late", s.lateFragments());
            one.put("missing", s.missingFragments());
            one.put("reconnects", s.reconnects());
            one.put("longestGapMs", s.longestGapNs() / NS_PER_MS);
            one.put("toAcceptMs", s.openToAcceptNs() < 0 ? null : s.openToAcceptNs() / NS_PER_MS);
            one.put("toFirstDataMs", s.openToFirstDataNs() < 0 ? null : s.openToFirstDataNs() / NS_PER_MS);
            one.put("mediaSeconds", s.mediaNs() / NS_PER_S);
            one.put("wallSeconds", s.wallNs() / NS_PER_S);
            one.put("mediaWallRatio", number(s.mediaWallRatio()));
            each.add(one);
        }
        root.put("each", each);
        return root;
    }

    private long failed() {
        long n = 0;
        for (Outcome o : new Outcome[] {Outcome.ERROR, Outcome.LOST, Outcome.PROTOCOL_FAULT, Outcome.CONNECT_FAILED,
            Outcome.NO_ANSWER}) {
            n += outcomes.getOrDefault(o, 0L);
        }
        return n;
    }

    /** The object's mean bit rate as ACCEPT gave it, averaged over the admitted streams. */
    private double streamBitsPerSecond() {
        return streams.stream().filter(StreamRecord::admitted).mapToLong(StreamRecord::bitsPerSecond).average()
            .orElse(0);
    }

    private static Map<String, Object> tally(long count, String first) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("count", count);
        t.put("first", first);
        return t;
    }

    private static Map<String, Object> percentilesMs(Histogram h) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("count", h.getTotalCount());
        p.put("p50", h.getTotalCount() == 0 ? null : h.getValueAtPercentile(50) / NS_PER_MS);
        p.put("p99", h.getTotalCount() == 0 ? null : h.getValueAtPercentile(99) / NS_PER_MS);
        p.put("max", h.getTotalCount() == 0 ? null : h.getMaxValue() / NS_PER_MS);
        return p;
    }

    /** The q-quantile (0 to 1) of sorted values, by nearest rank; NaN if there are none. */
    static double quantile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static Double number(double value) {
        return Double.isNaN(value) ? null : value;
    }

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.1f ms", ns / NS_PER_MS);
    }

    private static String ms(Histogram h, double percentile) {
        if (h.getTotalCount() == 0) {
            return "-";
        }
        return ms(percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile));
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.3f", r);
    }

    private static String seconds(long ns) {
        double s = ns / NS_PER_S;
        return String.format(Locale.ROOT, s == Math.rint(s) || s >= 10 ? "%.0f s" : "%.1f s", s);
    }

    private static String size(long b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double value = b;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, value == Math.rint(value) ? "%.0f %s" : "%.1f %s", value, units[unit]);
    }

    private static String quoted(String message) {
        return message == null || message.isEmpty() ? "(no message)" : "\"" + message + "\"";
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
