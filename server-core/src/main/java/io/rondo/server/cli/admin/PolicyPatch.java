package io.rondo.server.cli.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rondo.server.config.BitRates;
import io.rondo.server.config.Durations;
import io.rondo.server.config.RondoConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code KEY=VALUE} pairs as an RFC 7396 merge patch of the policy. A key is a dotted path of the
 * policy's JSON ({@code scheduler.policy}) or one of the {@code rondo.yaml} keys it stands for
 * ({@code buffers.ceiling=512M}, {@code network.capacity=unlimited}, {@code discrete.responseBound=2s}).
 * A number goes as a JSON number where the key takes one, anything else as a string, for the
 * server to judge: it knows the names of the policies and the sizes and rates it accepts.
 */
final class PolicyPatch {

    /** What a key's value is, and so how it is sent. */
    private enum Kind {
        /** A string. */
        TEXT,
        /** A number; anything else is sent as a string for the server to refuse. */
        NUMBER,
        /** A number, {@code unlimited} (sent as null), or a rate such as {@code 1G}. */
        RATE,
        /** A duration such as {@code 1500ms} or {@code 2s}, or {@code auto}: sent as milliseconds. */
        DURATION
    }

    /** A key of the command line: the policy's section and field it sets, and its kind. */
    private record Key(String section, String field, Kind kind) {
    }

    /** The policy's own keys: its JSON's dotted paths. */
    private static final Map<String, Key> POLICY_KEYS = new LinkedHashMap<>();
    /** The rondo.yaml keys that stand for them, with the values rondo.yaml takes. */
    private static final Map<String, Key> YAML_KEYS = new LinkedHashMap<>();

    static {
        POLICY_KEYS.put("scheduler.policy", new Key("scheduler", "policy", Kind.TEXT));
        POLICY_KEYS.put("scheduler.roundMs", new Key("scheduler", "roundMs", Kind.NUMBER));
        POLICY_KEYS.put("admission.policy", new Key("admission", "policy", Kind.TEXT));
        POLICY_KEYS.put("admission.discreteReserve", new Key("admission", "discreteReserve", Kind.NUMBER));
        POLICY_KEYS.put("discrete.responseBoundMs", new Key("discrete", "responseBoundMs", Kind.NUMBER));
        POLICY_KEYS.put("buffers.ceilingBytes", new Key("buffers", "ceilingBytes", Kind.NUMBER));
        POLICY_KEYS.put("network.capacityBitsPerSecond", new Key("network", "capacityBitsPerSecond", Kind.RATE));
        YAML_KEYS.put("buffers.ceiling", new Key("buffers", "ceilingBytes", Kind.NUMBER));
        YAML_KEYS.put("network.capacity", new Key("network", "capacityBitsPerSecond", Kind.RATE));
        YAML_KEYS.put("discrete.responseBound", new Key("discrete", "responseBoundMs", Kind.DURATION));
    }

    /** A JSON number, as RFC 8259 writes one. */
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?");

    private final Map<String, Map.Entry<Key, String>> values;

    private PolicyPatch(Map<String, Map.Entry<Key, String>> values) {
        this.values = values;
    }

    /**
     * The pairs of the command line; the last of two pairs that set one field wins.
     *
     * @throws AdminException (usage) for a pair without '=', an unknown key, or a duration that is none
     */
    static PolicyPatch parse(List<String> pairs) {
        Map<String, Map.Entry<Key, String>> values = new LinkedHashMap<>();
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw AdminException.usage("expected KEY=VALUE, was '" + pair + "'");
            }
            String name = pair.substring(0, equals).trim();
            String value = pair.substring(equals + 1).trim();
            Key key = POLICY_KEYS.containsKey(name) ? POLICY_KEYS.get(name) : YAML_KEYS.get(name);
            if (key == null) {
                throw AdminException.usage("unknown key '" + name + "'; the keys are "
                    + String.join(", ", POLICY_KEYS.keySet()) + ", and as in rondo.yaml buffers.ceiling (512M), "
                    + "network.capacity (1G, unlimited) and discrete.responseBound (2s, 1500ms, auto)");
            }
            if (key.kind() == Kind.DURATION && !value.equalsIgnoreCase(RondoConfig.AUTO)) {
                try {
                    Durations.parseMillis(value, name);
                } catch (IllegalArgumentException e) {
                    throw AdminException.usage(e.getMessage());
                }
            }
            values.put(key.section() + "." + key.field(), Map.entry(key, value));
        }
        return new PolicyPatch(values);
    }

    /**
     * The merge patch, against the policy in force: {@code discrete.responseBound=auto} is sized
     * from its round length and the discrete reserve (the one this patch sets, if it sets one).
     */
    ObjectNode against(JsonNode policy) {
        ObjectNode patch = AdminClient.JSON.createObjectNode();
        for (Map.Entry<Key, String> entry : values.values()) {
            Key key = entry.getKey();
            String value = entry.getValue();
            ObjectNode section = patch.has(key.section()) ? (ObjectNode) patch.get(key.section())
                : patch.putObject(key.section());
            switch (key.kind()) {
                case TEXT -> section.put(key.field(), value);
                case NUMBER -> section.set(key.field(), number(value));
                case RATE -> section.set(key.field(), value.equalsIgnoreCase(BitRates.UNLIMITED)
                    || value.equals("null") ? section.nullNode() : number(value));
                case DURATION -> section.put(key.field(), value.equalsIgnoreCase(RondoConfig.AUTO)
                    ? RondoConfig.autoResponseBoundMs(policy.path("scheduler").path("roundMs").asLong(),
                        reserve(policy))
                    : Durations.parseMillis(value, key.section() + "." + key.field()));
            }
        }
        return patch;
    }

    /** The discrete reserve after this patch. */
    private double reserve(JsonNode policy) {
        Map.Entry<Key, String> set = values.get("admission.discreteReserve");
        if (set != null && NUMBER.matcher(set.getValue()).matches()) {
            return Double.parseDouble(set.getValue());
        }
        return policy.path("admission").path("discreteReserve").asDouble();
    }

    /** A JSON number if {@code value} is one, else the string, for the server to explain what it takes. */
    private static JsonNode number(String value) {
        if (!NUMBER.matcher(value).matches()) {
            return AdminClient.JSON.getNodeFactory().textNode(value);
        }
        try {
            return AdminClient.JSON.readTree(value.toLowerCase(Locale.ROOT));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON number reads as one: " + value, e);
        }
    }
}
