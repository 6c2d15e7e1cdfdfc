package io.rondo.server.cli.admin;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code rondo admin kick}: ends a running stream, {@code DELETE /api/v1/streams/ID}. */
@Command(name = "kick",
    description = {
        "End a running stream.",
        "Its client gets an ERROR frame (0x0104, ended by an operator) and the stream's admission and buffers are "
            + "released. 'rondo admin streams' lists the ids."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class KickCommand implements Callable<Integer> {

    @ParentCommand
    private AdminCommand admin;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The stream's id, as 'rondo admin streams' lists it.")
    private long id;

    @Override
    public Integer call() {
        return admin.run(spec, out -> {
            admin.client().delete("/api/v1/streams/" + id);
            if (!admin.json()) {
                out.println("ended stream " + id);
            }
        });
    }
}
