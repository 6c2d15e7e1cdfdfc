package io.rondo.server.cli.admin;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;


/** {@code rondo admin kick}: ends a running stream, {@code DELETE /api/v1/streams/ID}. */
@Command(name = "kick",
    description = {
        "End a running stream.",
        "Its client gets an ERROR frame (0x0104, ended by an operator) and the stream's admission and buffers are "
            + "released. 'rondo admin streams' lists the ids."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class KickCommand extends AdminSubcommand {

    @Parameters(paramLabel = "ID", description = "The stream's id, as 'rondo admin streams' lists it.")
    private long id;

    @Override
    public Integer call() {
        return run(out -> {
            admin.client().delete("/api/v1/streams/" + id);
            if (!admin.json()) {
                out.println("ended stream " + id);
            }
        });
    }
}
