package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

/**
 * What every subcommand of {@code rondo admin} shares: the options of {@code rondo admin} (the
 * server, the token, {@code --json}) and one way to run, failures printed as one line and ended
 * with their exit code.
 */
abstract class AdminSubcommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Spec
    private CommandSpec spec;

    /** This subcommand's model, for its output and error writers. */
    final CommandSpec spec() {
        return spec;
    }

    /** Runs {@code action}, its failure printed as one line and ended with its exit code. */
    final int run(AdminCommand.Action action) {
        return admin.run(spec, action);
    }

    /** Shows a resource: {@code GET path}, its JSON with {@code --json}, else what {@code print} makes of it. */
    final int show(String path, BiConsumer<PrintWriter, JsonNode> print) {
        return run(out -> {
            JsonNode body = admin.client().get(path).body();
            if (admin.json()) {
                AdminCommand.printJson(out, body);
            } else {
                print.accept(out, body);
            }
        });
    }
}
