package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.server.config.BitRates;
import io.rondo.server.config.ByteSizes;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Iterator;
import java.util.Map;

/** {@code rondo admin policy}: the policy in force, {@code GET /api/v1/policy}, a line per key. */
@Command(name = "policy",
    description = {
        "Show the policy in force.",
        "A key = value line per setting: the scheduling policy and round length, the admission policy and discrete "
            + "reserve, the D-response bound, the buffer ceiling and the network capacity. 'rondo admin set "
            + "KEY=VALUE' changes them."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class PolicyCommand extends AdminSubcommand {

    /** The path of the policy resource. */
    static final String PATH = "/api/v1/policy";

    @Override
    public Integer call() {
        return show(PATH, (out, policy) -> print(out, policy, null));
    }

    /**
     * Prints {@code policy} as {@code section.key = value} lines, sizes and rates also in units;
     * with {@code before}, a changed value says what it was.
     */
    static void print(PrintWriter out, JsonNode policy, JsonNode before) {
        for (Iterator<Map.Entry<String, JsonNode>> sections = policy.fields(); sections.hasNext(); ) {
            Map.Entry<String, JsonNode> section = sections.next();
            for (Iterator<Map.Entry<String, JsonNode>> keys = section.getValue().fields(); keys.hasNext(); ) {
                Map.Entry<String, JsonNode> key = keys.next();
                String name = section.getKey() + "." + key.getKey();
                JsonNode was = before == null ? null : before.path(section.getKey()).path(key.getKey());
                out.println(name + " = " + value(name, key.getValue())
                    + (was == null || was.isMissingNode() || was.equals(key.getValue()) ? ""
                        : ", was " + value(name, was)));
            }
        }
    }

    private static String value(String name, JsonNode value) {
        if (name.equals("buffers.ceilingBytes") && value.canConvertToLong()) {
            return value.asLong() + " (" + ByteSizes.format(value.asLong()) + ")";
        }
        if (name.equals("network.capacityBitsPerSecond")) {
            return value.isNull() ? BitRates.UNLIMITED : value.asLong() + " (" + BitRates.format(value.asLong()) + ")";
        }
        return value.isValueNode() ? value.asText() : value.toString();
    }
}
