package io.rondo.server.cli.cluster;

import io.rondo.server.cluster.Cluster;
import io.rondo.server.cluster.RebalancePlan;
import io.rondo.server.config.RondoConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code rondo cluster status}: the nodes, what each holds, and the replicas missing or misplaced. */
@Command(name = "status",
    description = {"Show the cluster's nodes (rondo.yaml's cluster: section), how many objects each holds, and "
        + "the objects not on exactly their owners: replicas missing (a node joined, or one was down during an "
        + "upload) and copies on nodes that no longer own them (a node left or joined).",
        "",
        "Exit status: 0 when every node answers and every object is on its owners, 1 when rondo cluster "
            + "rebalance has work to do or a node does not answer."},
    mixinStandardHelpOptions = true, sortOptions = false)
final class StatusCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterOptions options;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RondoConfig settings = options.settings();
        Cluster cluster = options.cluster(settings);
        ClusterSurvey survey = ClusterSurvey.of(cluster, options.copies(settings, null));
        out.printf("a cluster of %d nodes, %d replicas of each object%n", cluster.nodes().size(), cluster.replicas());
        survey.printNodes(out);
        RebalancePlan plan = survey.plan();
        out.printf("%d objects: %d on exactly their owners, %d replicas missing, %d copies on nodes that do not "
            + "own them%n", plan.objects(), plan.placed(), plan.copies().size(), plan.removals().size());
        if (!plan.balanced()) {
            out.println("rondo cluster rebalance copies the missing replicas, then removes the extra copies");
        }
        if (!survey.unreachable().isEmpty()) {
            out.println("nodes that do not answer are left out: their objects are not counted, and nothing is "
                + "removed while an owner is unreachable");
        }
        return plan.balanced() && survey.unreachable().isEmpty() ? 0 : 1;
    }
}
