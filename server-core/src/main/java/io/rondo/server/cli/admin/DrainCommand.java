package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rondo admin drain}: the server takes no new stream, {@code POST /api/v1/server/drain};
 * {@code --off} lets it take them again, {@code DELETE /api/v1/server/drain}.
 */
@Command(name = "drain",
    description = {
        "Drain the server: it admits no new stream.",
        "A new stream is refused with a retry-after and the agent tells HAProxy 'drain', so new streams go to the "
            + "other nodes; the streams playing go on and HTTP is served. --off ends the drain. A stopping server "
            + "stays drained."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class DrainCommand extends AdminSubcommand {

    /** The drain's resource. */
    static final String PATH = "/api/v1/server/drain";

    @Option(names = "--off", description = "End the drain: the server admits new streams again.")
    private boolean off;

    @Override
    public Integer call() {
        return run(out -> {
            JsonNode state = (off ? admin.client().delete(PATH) : admin.client().post(PATH)).body();
            if (admin.json()) {
                AdminCommand.printJson(out, state);
                return;
            }
            String reason = state.path("reason").asText();
            out.println((state.path("draining").asBoolean() ? "draining: " + reason + "; no new stream is admitted"
                : "ready: new streams are admitted") + "; the agent says '" + state.path("agent").asText() + "'");
        });
    }
}
