package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.Locale;

/**
 * {@code rondo admin disks}: each disk's rounds as {@code GET /api/v1/disks} reports them, and the
 * slack of its last rounds drawn as a line of bars (papers/000 Figure 2: the slack of each time
 * cycle, what the round left for discrete requests).
 */
@Command(name = "disks",
    description = {
        "Show each disk's rounds, slack and D-response times.",
        "Per disk: its scheduling policy, the streams admitted to it and the share of the round they take, "
            + "rounds, overruns and deadline misses, the slack of the last round, D-response times (p95, p99, max) "
            + "against their bound, IO errors, and a bar per round of the last rounds' slack: a full bar is a round "
            + "left idle, ! a round that overran."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class DisksCommand extends AdminSubcommand {

    /** Bars from an empty round's slack (none) to a full one, lowest first. */
    private static final String BARS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588";
    /** The same for a terminal whose character set has no bars. */
    private static final String ASCII_BARS = "_.-:=+*#";

    @Override
    public Integer call() {
        boolean bars = Charset.defaultCharset().newEncoder().canEncode(BARS);
        return show("/api/v1/disks", (out, disks) -> {
            boolean first = true;
            for (JsonNode disk : disks.path("items")) {
                if (!first) {
                    out.println();
                }
                first = false;
                print(out, disk, bars);
            }
        });
    }

    private static void print(PrintWriter out, JsonNode disk, boolean bars) {
        JsonNode rounds = disk.path("slack");
        JsonNode last = rounds.isEmpty() ? null : rounds.get(rounds.size() - 1);
        Table fields = new Table().left("disk").left(disk.path("name").asText());
        fields.row("model", disk.path("model").asText() + ", rounds of " + disk.path("roundMs").asLong() + " ms")
            .row("policy", disk.path("schedulingPolicy").asText())
            .row("admitted streams", disk.path("admittedStreams").asInt())
            .row("committed", String.format(Locale.ROOT, "%.1f%% of the round (discrete reserve %.0f%%)",
                disk.path("committedShare").asDouble() * 100, disk.path("discreteReserve").asDouble() * 100))
            .row("rounds", disk.path("rounds").asLong())
            .row("overruns", disk.path("overruns").asLong())
            .row("deadline misses", disk.path("glitches").asLong())
            .row("last slack", last == null ? null : StreamsCommand.millis(last.path("slackMs")))
            .row("D-response", discreteResponse(disk.path("discreteResponse")))
            .row("IO errors", disk.path("ioErrors").asLong());
        if (last != null) {
            fields.row("slack", sparkline(rounds, bars));
        }
        fields.print(out);
    }

    private static String discreteResponse(JsonNode response) {
        long bound = response.path("boundMs").asLong();
        long count = response.path("count").asLong();
        if (count == 0) {
            return "none answered yet (bound " + bound + " ms)";
        }
        return String.format(Locale.ROOT, "p95 %s, p99 %s, max %s against a bound of %d ms (%d of %d over)",
            StreamsCommand.millis(response.path("p95Ms")), StreamsCommand.millis(response.path("p99Ms")),
            StreamsCommand.millis(response.path("maxMs")), bound, response.path("overBound").asLong(), count);
    }

    /**
     * A bar per round, oldest first: its slack as a share of the round, {@code !} for an overrun;
     * then the rounds' span of slack.
     *
     * @param rounds the rounds as the API lists them
     * @param bars   block characters; else ASCII
     */
    static String sparkline(JsonNode rounds, boolean bars) {
        String levels = bars ? BARS : ASCII_BARS;
        StringBuilder line = new StringBuilder();
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        boolean overran = false;
        for (JsonNode round : rounds) {
            double slackMs = round.path("slackMs").asDouble();
            double share = Math.max(0, Math.min(1, slackMs / round.path("lengthMs").asDouble()));
            min = Math.min(min, slackMs);
            max = Math.max(max, slackMs);
            if (round.path("overrun").asBoolean()) {
                overran = true;
                line.append('!');
            } else {
                line.append(levels.charAt((int) Math.round(share * (levels.length() - 1))));
            }
        }
        String span = min == max ? String.format(Locale.ROOT, "%.1f ms each", min)
            : String.format(Locale.ROOT, "%.1f to %.1f ms", min, max);
        return line + "  the last " + rounds.size() + " rounds, " + span + (overran ? "; ! overran" : "");
    }
}
