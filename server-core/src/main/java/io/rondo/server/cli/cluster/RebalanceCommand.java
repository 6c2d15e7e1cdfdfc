package io.rondo.server.cli.cluster;

import io.rondo.server.cli.console.Progress;
import io.rondo.server.cluster.Cluster;
import io.rondo.server.cluster.NodeCopies;
import io.rondo.server.cluster.RebalancePlan;
import io.rondo.server.config.ClusterSettings.Node;
import io.rondo.server.config.RondoConfig;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code rondo cluster rebalance}: brings every object onto its owners after a node joined or left
 * (about {@code r/n} of the objects move), copying first and removing after, at a bounded rate.
 */
@Command(name = "rebalance",
    description = {"Copy each object to the owners that lack it (read from a node that holds it with a plain GET, "
        + "which its disks schedule like any download, and stored through the owner's admin API), then remove the "
        + "copies of nodes that no longer own them. Nothing is removed until every owner of the object holds it, "
        + "so reads stay correct throughout; copies are read no faster than --rate.",
        "",
        "Exit status: 0 when the cluster is balanced after it, 1 when a copy failed or a node did not answer."},
    mixinStandardHelpOptions = true, sortOptions = false)
final class RebalanceCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterOptions options;

    @Option(names = "--dry-run", description = "Say what would be copied and removed, and change nothing.")
    private boolean dryRun;

    @Option(names = "--rate", paramLabel = "BYTES",
        description = "The most the copies read a second, e.g. 16M (default: cluster.copyRate).")
    private String rate;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RondoConfig settings = options.settings();
        Cluster cluster = options.cluster(settings);
        NodeCopies copies = options.copies(settings, rate);
        ClusterSurvey survey = ClusterSurvey.of(cluster, copies);
        survey.unreachable().forEach((node, why) -> out.printf("%s does not answer (%s): left out%n", node, why));
        RebalancePlan plan = survey.plan();
        out.printf("%d objects, %d on exactly their owners: %d copies to make, %d to remove%n", plan.objects(),
            plan.placed(), plan.copies().size(), plan.removals().size());
        if (dryRun) {
            plan.copies().forEach(copy -> out.printf("copy %s from %s to %s%n", copy.object(), copy.from(),
                copy.to()));
            plan.removals().forEach(removal -> out.printf("remove %s from %s%n", removal.object(), removal.node()));
            return plan.balanced() && survey.unreachable().isEmpty() ? 0 : 1;
        }
        out.flush();
        Set<String> failed = new HashSet<>();
        long bytes = plan.copies().stream().mapToLong(c -> survey.object(c.from(), c.object()).size()).sum();
        try (ProgressBar bar = Progress.bar("copying", bytes, "MiB", 1 << 20, true)) {
            for (RebalancePlan.Copy copy : plan.copies()) {
                NodeCopies.Listed object = survey.object(copy.from(), copy.object());
                try {
                    copies.copy(object, node(cluster, copy.from()), node(cluster, copy.to()));
                } catch (IOException e) {
                    failed.add(copy.object());
                    spec.commandLine().getErr().printf("%s: %s%n", copy.object(), e.getMessage());
                }
                bar.stepBy(object.size());
            }
        }
        int removed = 0;
        for (RebalancePlan.Removal removal : plan.removals()) {
            if (failed.contains(removal.object())) {
                continue;
            }
            try {
                copies.remove(node(cluster, removal.node()), removal.object());
                removed++;
            } catch (IOException e) {
                failed.add(removal.object());
                spec.commandLine().getErr().printf("%s: %s%n", removal.object(), e.getMessage());
            }
        }
        out.printf("copied %d objects (%.1f MB), removed %d copies; %d objects failed%n",
            plan.copies().size() - (int) plan.copies().stream().filter(c -> failed.contains(c.object())).count(),
            bytes / 1e6, removed, failed.size());
        return failed.isEmpty() && survey.unreachable().isEmpty() ? 0 : 1;
    }

    private static Node node(Cluster cluster, String name) {
        return cluster.node(name).orElseThrow();
    }
}
