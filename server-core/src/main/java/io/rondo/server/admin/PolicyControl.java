package io.rondo.server.admin;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.admission.AdmissionPolicy;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.server.config.BitRates;
import io.rondo.server.config.ByteSizes;
import io.rondo.server.config.DirectMemory;
import io.rondo.server.observe.EventHub;
import io.rondo.server.runtime.DiskRuntime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * The policy of a running server and its changes (RFC 7396 merge patches with an {@code If-Match}
 * precondition). A change reaches every disk at its next round start (the scheduling policy), and
 * admission control, the buffer pool and the D-response bound at once; nothing already admitted
 * is dropped: a setting the running streams no longer fit applies to new streams, and the answer
 * says how many running streams exceed it. {@code scheduler.roundMs} is the time cycle the operator
 * asks for (papers/003): a power of two of the rounds the stored fragments were cut to, which every
 * stream's reads move to at once if they all still fit, refused with 422 if not; with stream
 * combination on, the cycle adapts from there (the cycle in force is the admission resource's and
 * the metrics'). Without a stream server behind it, the round cannot change.
 *
 * <p>With a data folder, a change outlives the server: the policy changed through the API is kept
 * in {@link #FILE} ({@link PolicyFile}) and is in force again at the next start, over
 * {@code rondo.yaml}'s values of the same keys (delete the file to go back to them). The ETag is
 * {@code "p<generation>-<folder id>"}: the generation counts every change and every start and is
 * kept in the same file, the id is drawn once per data folder, so an ETag never names two
 * policies, across restarts included.
 */
public final class PolicyControl {

    private static final Map<String, Set<String>> KEYS = Map.of(
        "scheduler", Set.of("policy", "roundMs"),
        "admission", Set.of("policy", "discreteReserve"),
        "discrete", Set.of("responseBoundMs"),
        "buffers", Set.of("ceilingBytes"),
        "network", Set.of("capacityBitsPerSecond"));

    private final DiskRuntime disks;
    private final AdmissionController admission;
    private final EventHub events;
    private static final Logger LOG = LoggerFactory.getLogger(PolicyControl.class);

    /** Where a data folder keeps the policy, under its {@code rondo} folder. */
    public static final String FILE = "policy.json";

    /** The JSON of a patch: one document, each key once. */
    private static final ObjectReader STRICT_JSON = ApiReply.JSON.readerFor(JsonNode.class)
        .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final PolicyFile file;
    private final long directMemoryBytes;
    /** Takes a time cycle an operator asks for, in ns; null where the round cannot change. */
    private final LongConsumer cycles;
    private final String id;
    private PolicyView current;
    private long generation;

    /** The policy of {@code rondo.yaml}'s values, kept in memory only: a restart forgets its changes. */
    public PolicyControl(DiskRuntime disks, AdmissionController admission, EventHub events, String schedulingPolicy,
                         long responseBoundMs) {
        this(disks, admission, events, schedulingPolicy, responseBoundMs, null, DirectMemory.maxBytes());
    }

    /**
     * The policy of {@code rondo.yaml}'s values, or of the last change kept in {@code file} (null: in
     * memory only), which is then in force from now on; a buffer ceiling above {@code directMemoryBytes}
     * (the JVM's direct memory, where the buffers live) is refused.
     *
     * @throws IllegalStateException if the kept policy cannot be read or applied: the file says why
     */
    public PolicyControl(DiskRuntime disks, AdmissionController admission, EventHub events, String schedulingPolicy,
                         long responseBoundMs, PolicyFile file, long directMemoryBytes) {
        this(disks, admission, events, schedulingPolicy, responseBoundMs, file, directMemoryBytes, null);
    }

    /**
     * As {@link #PolicyControl(DiskRuntime, AdmissionController, EventHub, String, long, PolicyFile, long)},
     * with {@code cycles} taking the time cycle {@code scheduler.roundMs} asks for (in ns), or
     * refusing it with an {@link IllegalArgumentException} that says why.
     */
    public PolicyControl(DiskRuntime disks, AdmissionController admission, EventHub events, String schedulingPolicy,
                         long responseBoundMs, PolicyFile file, long directMemoryBytes, LongConsumer cycles) {
        this.cycles = cycles;
        this.file = file;
        this.directMemoryBytes = directMemoryBytes;
        this.disks = disks;
        this.admission = admission;
        this.events = events;
        AdmissionConfig config = admission.config();
        this.current = new PolicyView(new PolicyView.Scheduler(schedulingPolicy, disks.roundNs() / 1_000_000),
            new PolicyView.Admission(config.policy().label(), config.discreteReserve()),
            new PolicyView.Discrete(responseBoundMs), new PolicyView.Buffers(config.bufferCeilingBytes()),
            new PolicyView.Network(config.networkLimited() ? config.networkBitsPerSecond() : null));
        disks.responseBoundNs(responseBoundMs * 1_000_000);
        PolicyFile.State kept = file == null ? PolicyFile.State.fresh() : file.load();
        if (kept.policy() != null) {
            ObjectNode merged = ApiReply.JSON.valueToTree(current);
            merge(merged, kept.policy(), file + ": ");
            long roundMs = current.scheduler().roundMs();
            JsonNode keptCycle = merged.get("scheduler").get("roundMs");
            long keptRounds = whole(keptCycle) ? keptCycle.asLong() / roundMs : 0;
            if (cycles == null || keptCycle.asLong() % roundMs != 0 || Long.bitCount(keptRounds) != 1) {
                if (keptCycle.asLong() != roundMs) {
                    LOG.warn("{}: the time cycle kept there, {} ms, is not a power of two of today's {} ms rounds; "
                        + "the cycle starts at one round", file, keptCycle, roundMs);
                }
                ((ObjectNode) merged.get("scheduler")).put("roundMs", roundMs);
            }
            try {
                PolicyView restored = read(merged);
                apply(restored, current);
                current = restored;
            } catch (Problem problem) {
                throw new IllegalStateException(file + ": the policy kept there cannot be applied: "
                    + problem.getMessage() + "; change it or delete the file", problem);
            }
        }
        this.generation = kept.generation() + 1;
        this.id = kept.id();
        if (file != null) {
            file.save(new PolicyFile.State(id, generation, kept.policy()));
        }
    }

    /** The policy in force. */
    public synchronized PolicyView current() {
        return current;
    }

    /** The policy's entity tag: it changes with every change and every start, and never names another policy. */
    public synchronized String etag() {
        return "\"p" + generation + "-" + id + "\"";
    }

    /**
     * Applies a merge patch whose {@code If-Match} is {@code ifMatch}.
     *
     * @throws Problem 428 without If-Match, 412 if it is stale, 400 for a bad document, 422 for a
     *                 change that cannot be made while the server runs
     */
    public synchronized PolicyView.Change patch(String ifMatch, byte[] body) {
        if (ifMatch == null) {
            throw Problem.preconditionRequired("PATCH /api/v1/policy needs If-Match with the policy's ETag, "
                + etag() + " now: GET it, change it, send it back");
        }
        if (!ifMatch.trim().equals("*") && !ifMatch.trim().equals(etag())) {
            throw Problem.preconditionFailed("the policy changed since " + ifMatch.trim() + "; it is " + etag()
                + " now: GET it again").with("etag", etag());
        }
        JsonNode patch;
        try {
            patch = STRICT_JSON.readValue(body);
        } catch (JsonProcessingException e) {
            throw Problem.invalid(null, "the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw Problem.invalid(null, "the body is not JSON: " + e.getMessage());
        }
        if (patch == null || !patch.isObject()) {
            throw Problem.invalid(null, "a merge patch of the policy is a JSON object, e.g. "
                + "{\"scheduler\":{\"policy\":\"mixed-gated-scan\"}}");
        }
        ObjectNode merged = ApiReply.JSON.valueToTree(current);
        merge(merged, patch, "");
        PolicyView next = read(merged);
        PolicyView before = current;
        int exceeding = apply(next, before);
        if (file != null) {
            try {
                file.save(new PolicyFile.State(id, generation + 1, ApiReply.JSON.valueToTree(next)));
            } catch (IllegalStateException e) {
                apply(before, next);
                LOG.warn("the policy change is not made: {}", e.getMessage());
                throw Problem.internal();
            }
        }
        current = next;
        generation++;
        events.publish("policy", next);
        return new PolicyView.Change(next, "next-round", exceeding);
    }

    /** Merges {@code patch} into {@code merged}, refusing a section or key the policy does not have. */
    private static void merge(ObjectNode merged, JsonNode patch, String where) {
        for (Iterator<Map.Entry<String, JsonNode>> sections = patch.fields(); sections.hasNext(); ) {
            Map.Entry<String, JsonNode> section = sections.next();
            Set<String> keys = KEYS.get(section.getKey());
            if (keys == null) {
                throw Problem.invalid(section.getKey(), where + "the policy has no section '" + section.getKey()
                    + "'; it has " + KEYS.keySet().stream().sorted().toList());
            }
            if (!section.getValue().isObject()) {
                throw Problem.invalid(section.getKey(), where + section.getKey() + " is an object of keys "
                    + keys.stream().sorted().toList());
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = section.getValue().fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!keys.contains(field.getKey())) {
                    throw Problem.invalid(section.getKey() + "." + field.getKey(), where + section.getKey()
                        + " has no key '" + field.getKey() + "'; it has " + keys.stream().sorted().toList());
                }
                ((ObjectNode) merged.get(section.getKey())).set(field.getKey(), field.getValue());
            }
        }
    }

    /** The merged document as a policy, every value checked. */
    private PolicyView read(ObjectNode merged) {
        JsonNode round = merged.get("scheduler").get("roundMs");
        if (!whole(round) || round.asLong() < 1) {
            throw Problem.invalid("scheduler.roundMs", "scheduler.roundMs is a whole number of milliseconds, was "
                + round);
        }
        if (cycles == null && round.asLong() != current.scheduler().roundMs()) {
            throw Problem.unprocessable("scheduler.roundMs", "the round length cannot change here: every continuous "
                + "object's fragments were cut to " + current.scheduler().roundMs() + " ms at ingest");
        }
        String scheduling = text(merged, "scheduler", "policy");
        try {
            SchedulingPolicy.parse(scheduling);
        } catch (IllegalArgumentException e) {
            throw Problem.invalid("scheduler.policy", e.getMessage());
        }
        AdmissionPolicy admissionPolicy;
        try {
            admissionPolicy = AdmissionPolicy.parse(text(merged, "admission", "policy"));
        } catch (IllegalArgumentException e) {
            throw Problem.invalid("admission.policy", e.getMessage());
        }
        JsonNode reserve = merged.get("admission").get("discreteReserve");
        if (!reserve.isNumber() || reserve.asDouble() < 0 || reserve.asDouble() >= 1) {
            throw Problem.invalid("admission.discreteReserve", "admission.discreteReserve is a number at least 0 and "
                + "below 1, was " + reserve);
        }
        JsonNode bound = merged.get("discrete").get("responseBoundMs");
        if (!whole(bound) || bound.asLong() < 1 || bound.asLong() > 3_600_000) {
            throw Problem.invalid("discrete.responseBoundMs", "discrete.responseBoundMs is a whole number of "
                + "milliseconds from 1 to 3600000, was " + bound);
        }
        long ceiling = bytes(merged.get("buffers").get("ceilingBytes"));
        if (ceiling > directMemoryBytes) {
            throw Problem.unprocessable("buffers.ceilingBytes", "buffers.ceilingBytes " + ByteSizes.format(ceiling)
                + " is more than the " + ByteSizes.format(directMemoryBytes) + " of direct memory this JVM may "
                + "use, where the buffers live: admission would admit streams whose buffers cannot be had. Give "
                + "the JVM more (RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize=...) or ask for less");
        }
        Long network = bits(merged.get("network").get("capacityBitsPerSecond"));
        return new PolicyView(new PolicyView.Scheduler(scheduling, round.asLong()),
            new PolicyView.Admission(admissionPolicy.label(), reserve.asDouble()),
            new PolicyView.Discrete(bound.asLong()), new PolicyView.Buffers(ceiling), new PolicyView.Network(network));
    }

    /** A whole number as JSON Schema sees one: {@code 2000} and {@code 2000.0} alike, within a long. */
    private static boolean whole(JsonNode value) {
        return value != null && value.isNumber() && value.canConvertToExactIntegral() && value.canConvertToLong();
    }

    private static String text(ObjectNode merged, String section, String key) {
        JsonNode value = merged.get(section).get(key);
        if (value == null || !value.isTextual()) {
            throw Problem.invalid(section + "." + key, section + "." + key + " is a string, was " + value);
        }
        return value.asText();
    }

    private static long bytes(JsonNode value) {
        long bytes;
        if (whole(value)) {
            bytes = value.asLong();
        } else if (value.isTextual()) {
            try {
                bytes = ByteSizes.parse(value.asText(), "buffers.ceilingBytes");
            } catch (IllegalArgumentException e) {
                throw Problem.invalid("buffers.ceilingBytes", e.getMessage());
            }
        } else {
            throw Problem.invalid("buffers.ceilingBytes", "buffers.ceilingBytes is a number of bytes or a size such as "
                + "512M, was " + value);
        }
        if (bytes < DiskIo.ALIGNMENT) {
            throw Problem.invalid("buffers.ceilingBytes", "buffers.ceilingBytes must be at least one aligned buffer, "
                + DiskIo.ALIGNMENT + " bytes, was " + value);
        }
        return bytes;
    }

    private static Long bits(JsonNode value) {
        if (value.isNull()) {
            return null;
        }
        long bits;
        if (whole(value)) {
            bits = value.asLong();
        } else if (value.isTextual()) {
            try {
                bits = BitRates.parse(value.asText(), "network.capacityBitsPerSecond");
            } catch (IllegalArgumentException e) {
                throw Problem.invalid("network.capacityBitsPerSecond", e.getMessage());
            }
        } else {
            throw Problem.invalid("network.capacityBitsPerSecond", "network.capacityBitsPerSecond is a number of bits "
                + "a second, a rate such as 1G, or null for unlimited, was " + value);
        }
        if (bits < 1) {
            throw Problem.invalid("network.capacityBitsPerSecond", "network.capacityBitsPerSecond must be positive, "
                + "was " + value);
        }
        return bits == AdmissionConfig.UNLIMITED_NETWORK ? null : bits;
    }

    /** Puts {@code next} in force; returns how many running streams exceed its admission settings. */
    private int apply(PolicyView next, PolicyView from) {
        if (cycles != null && next.scheduler().roundMs() != from.scheduler().roundMs()) {
            try {
                cycles.accept(next.scheduler().roundMs() * 1_000_000);
            } catch (IllegalArgumentException e) {
                throw Problem.unprocessable("scheduler.roundMs", e.getMessage());
            }
        }
        SchedulingPolicy scheduling = SchedulingPolicy.parse(next.scheduler().policy());
        AdmissionConfig config = admission.config()
            .withPolicy(AdmissionPolicy.parse(next.admission().policy()))
            .withDiscreteReserve(next.admission().discreteReserve())
            .withBufferCeilingBytes(next.buffers().ceilingBytes())
            .withNetworkBitsPerSecond(next.network().capacityBitsPerSecond() == null
                ? AdmissionConfig.UNLIMITED_NETWORK : next.network().capacityBitsPerSecond());
        try {
            disks.changePolicy(scheduling);
        } catch (IllegalArgumentException e) {
            throw Problem.unprocessable("scheduler.policy", e.getMessage());
        }
        int exceeding = admission.reconfigure(config).exceeding();
        disks.buffers().ceilingBytes(next.buffers().ceilingBytes());
        disks.responseBoundNs(next.discrete().responseBoundMs() * 1_000_000);
        return exceeding;
    }
}
