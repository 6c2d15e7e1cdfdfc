package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.server.config.BitRates;
import io.rondo.server.config.ByteSizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rondo admin live}: the recordings being written, {@code GET /api/v1/live}, as a table;
 * {@code rondo admin live stop NAME} stops one, {@code DELETE /api/v1/live/NAME}.
 */
@Command(name = "live",
    description = {
        "List the live recordings being written.",
        "A row per recording: its name, disk, declared peak rate and the media rate of its last fragments, bytes "
            + "received, fragments cut, write rounds and late write rounds (dropped at their round's end and "
            + "written the round after), what is durable (what a crash now would keep), the media recorded and "
            + "its viewers; then what every recording did since the server started.",
        "'rondo admin live stop NAME' stops one."},
    mixinStandardHelpOptions = true,
    sortOptions = false,
    subcommands = LiveCommand.Stop.class)
final class LiveCommand extends AdminSubcommand {

    /** The path of the recordings' resource. */
    static final String PATH = "/api/v1/live";

    @Override
    public Integer call() {
        return show(PATH, LiveCommand::print);
    }

    private static void print(PrintWriter out, JsonNode live) {
        JsonNode items = live.path("items");
        if (items.isEmpty()) {
            out.println("nothing is being recorded");
        } else {
            Table table = new Table().left("NAME").left("DISK").right("PEAK").right("RATE").right("RECEIVED")
                .right("FRAGMENTS").right("WRITES").right("LATE").right("DURABLE").right("RECORDED").right("VIEWERS");
            for (JsonNode recording : items) {
                JsonNode recent = recording.path("recentBitsPerSecond");
                table.row(recording.path("name").asText(), recording.path("disk").asText(),
                    BitRates.format(recording.path("peakBitsPerSecond").asLong()),
                    recent.isNumber() ? BitRates.format(recent.asLong()) : null,
                    ByteSizes.format(recording.path("bytesReceived").asLong()),
                    recording.path("fragmentsCut").asLong(), recording.path("writeRounds").asLong(),
                    recording.path("lateWriteRounds").asLong(),
                    seconds(recording.path("durableSeconds")) + " (" + recording.path("durableFragments").asInt() + ")",
                    seconds(recording.path("recordedSeconds")), recording.path("viewers").asInt());
            }
            table.print(out);
        }
        JsonNode totals = live.path("totals");
        out.println(totals.path("active").asLong() + " recording" + (totals.path("active").asLong() == 1 ? "" : "s")
            + " now, " + totals.path("started").asLong() + " since the start: " + totals.path("writeRounds").asLong()
            + " write rounds, " + totals.path("lateWriteRounds").asLong() + " late, "
            + ByteSizes.format(totals.path("bytesWritten").asLong()) + " written");
    }

    private static String seconds(JsonNode value) {
        return String.format(Locale.ROOT, "%.1f s", value.asDouble());
    }

    /** {@code rondo admin live stop NAME}: stops a recording, {@code DELETE /api/v1/live/NAME}. */
    @Command(name = "stop",
        description = {
            "Stop a live recording.",
            "What was cut is written, then the recording closes as an ordinary object. Its publisher is told: "
                + "ERROR 0x0104 (ended by an operator) over the stream protocol, the answer to its PUT over HTTP."},
        mixinStandardHelpOptions = true,
        sortOptions = false)
    static final class Stop implements Callable<Integer> {

        @ParentCommand
        private LiveCommand live;

        @Spec
        private CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "The recording's name, as 'rondo admin live' lists it.")
        private String name;

        @Override
        public Integer call() {
            AdminCommand admin = live.admin;
            return admin.run(spec, out -> {
                admin.client().delete(PATH + "/" + UploadCommand.encodedName(name));
                if (!admin.json()) {
                    out.println("stopping the recording of " + (name.startsWith("/") ? name : "/" + name)
                        + "; it closes once its last round is written");
                }
            });
        }
    }
}
