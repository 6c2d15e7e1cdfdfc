package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rondo.server.config.ByteSizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Locale;

/** {@code rondo admin streams}: the running streams, every page of {@code GET /api/v1/streams}. */
@Command(name = "streams",
    description = {
        "List the running streams.",
        "A row per stream: id, object, client, transport, state, buffer mode (dblbuf, clbuf, clbufrate: "
            + "docs/client-buffers.md), position in the media, bytes sent, glitches "
            + "(fragments not on the wire by their deadline), the latest a fragment went out against its deadline "
            + "(negative: early) and the time from OPEN to the first fragment, every page of them.",
        "The id is what 'rondo admin kick ID' takes."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class StreamsCommand extends AdminSubcommand {

    /** The largest page the API gives. */
    private static final int PAGE = 500;

    @Option(names = "--disk", paramLabel = "DISK", description = "Only the streams that read from this disk.")
    private String disk;

    @Option(names = "--object", paramLabel = "NAME", description = "Only the streams of this object, e.g. /a.webm.")
    private String object;

    @Override
    public Integer call() {
        return run(out -> {
            ArrayNode streams = AdminClient.JSON.createArrayNode();
            String cursor = null;
            do {
                JsonNode page = admin.client().get(path(cursor)).body();
                page.path("items").forEach(streams::add);
                cursor = page.path("next").isTextual() ? page.get("next").asText() : null;
            } while (cursor != null);
            if (admin.json()) {
                ObjectNode all = AdminClient.JSON.createObjectNode();
                all.set("items", streams);
                all.putNull("next");
                AdminCommand.printJson(out, all);
            } else {
                print(out, streams);
            }
        });
    }

    private String path(String cursor) {
        StringBuilder path = new StringBuilder("/api/v1/streams?limit=").append(PAGE);
        if (disk != null) {
            path.append("&disk=").append(AdminClient.encode(disk));
        }
        if (object != null) {
            path.append("&object=").append(AdminClient.encode(object));
        }
        if (cursor != null) {
            path.append("&cursor=").append(AdminClient.encode(cursor));
        }
        return path.toString();
    }

    private void print(PrintWriter out, ArrayNode streams) {
        if (streams.isEmpty()) {
            out.println("no streams are running" + (disk == null ? "" : " on disk " + disk)
                + (object == null ? "" : " of " + object));
            return;
        }
        Table table = new Table().right("ID").left("OBJECT").left("CLIENT").left("TRANSPORT").left("STATE")
            .left("BUFFERS").right("POSITION").right("BYTES").right("GLITCHES").right("MAX LATENESS")
            .right("INITIAL LATENCY");
        for (JsonNode stream : streams) {
            table.row(stream.path("id").asLong(), stream.path("object").asText(), stream.path("client").asText(),
                stream.path("transport").asText(), stream.path("state").asText(),
                stream.path("bufferMode").asText(),
                String.format(Locale.ROOT, "%.1f s", stream.path("positionSeconds").asDouble()),
                ByteSizes.format(stream.path("bytesSent").asLong()), stream.path("glitches").asLong(),
                millis(stream.path("maxLatenessMs")), millis(stream.path("initialLatencyMs")));
        }
        table.print(out);
    }

    /** Milliseconds to a tenth, or null (printed as -) before there are any. */
    static String millis(JsonNode value) {
        return value.isNumber() ? String.format(Locale.ROOT, "%.1f ms", value.asDouble()) : null;
    }
}
