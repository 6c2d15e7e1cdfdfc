package io.rondo.server.cli.cluster;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code rondo cluster}: the commands of a cluster of Rondo nodes behind HAProxy (papers/004 Section 6). */
@Command(name = "cluster",
    description = "Several Rondo nodes as one service behind HAProxy.",
    mixinStandardHelpOptions = true,
    subcommands = {StatusCommand.class, RebalanceCommand.class, HaproxyConfigCommand.class})
public final class ClusterCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
