package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

/**
 * {@code rondo admin set}: changes the policy of a running server with a merge patch on the
 * policy's entity tag ({@code PATCH /api/v1/policy}, {@code If-Match}). If another change came
 * between the read and the patch (412), the patch is sent once more on the fresh tag: a merge
 * patch says only what it sets, so it means the same on the newer policy.
 */
@Command(name = "set",
    description = {
        "Change the policy of the running server.",
        "No restart, no stream dropped: the scheduling policy changes at each disk's next round, the rest at "
            + "once. A setting the running streams no longer fit applies to new streams; the answer says how many "
            + "running streams exceed it.",
        "",
        "KEY is a key of 'rondo admin policy': scheduler.policy, admission.policy, admission.discreteReserve, "
            + "discrete.responseBoundMs, buffers.ceilingBytes, network.capacityBitsPerSecond (scheduler.roundMs "
            + "cannot change while the server runs); or as rondo.yaml writes it: buffers.ceiling=512M, "
            + "network.capacity=1G or unlimited, discrete.responseBound=2s, 1500ms or auto.",
        "",
        "Example: rondo admin set scheduler.policy=mixed-gated-scan buffers.ceiling=1G"},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class SetCommand extends AdminSubcommand {

    /** The status of a change whose If-Match no longer holds. */
    private static final int PRECONDITION_FAILED = 412;

    @Parameters(arity = "1..*", paramLabel = "KEY=VALUE", description = "A key of the policy and its new value.")
    private List<String> pairs;

    @Override
    public Integer call() {
        return run(out -> {
            PolicyPatch patch = PolicyPatch.parse(pairs);
            AdminClient client = admin.client();
            AdminClient.Reply before = client.get(PolicyCommand.PATH);
            AdminClient.Reply changed;
            try {
                changed = client.mergePatch(PolicyCommand.PATH, before.etag(), patch.against(before.body()));
            } catch (AdminException e) {
                if (e.status() != PRECONDITION_FAILED) {
                    throw e;
                }
                before = client.get(PolicyCommand.PATH);
                changed = client.mergePatch(PolicyCommand.PATH, before.etag(), patch.against(before.body()));
            }
            if (admin.json()) {
                AdminCommand.printJson(out, changed.body());
                return;
            }
            JsonNode change = changed.body();
            PolicyCommand.print(out, change.path("policy"), before.body());
            String from = change.path("appliesFrom").asText();
            int exceeding = change.path("exceedingStreams").asInt();
            out.println("applies from " + (from.equals("next-round") ? "the next round" : from)
                + (exceeding > 0 ? "; " + exceeding + " running stream" + (exceeding == 1 ? " exceeds" : "s exceed")
                    + " it" : ""));
        });
    }
}
