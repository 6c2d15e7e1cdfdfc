package io.rondo.scheduler.policy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A point in the policy framework of papers/001 Section 2.4: service period, number of
 * subrounds, limitation and queue ordering. The four policies Section 3 keeps are presets; the
 * rest of the framework is reachable with {@link #parse}, and combinations the framework rules
 * out are refused with the reason.
 *
 * @param name                  how reports name this policy
 * @param servicePeriod         mixed, or disjoint with either class first
 * @param subrounds             (sub)rounds per round, at least 1 (the paper's 0 for a mixed
 *                              round is read as 1)
 * @param limitation            how D-requests are limited per (sub)round
 * @param discreteLimit         D-requests per (sub)round under {@link Limitation#STATIC_NUMBER}, else 0
 * @param discretePeriodShare   the D-period's share of a (sub)round under
 *                              {@link Limitation#STATIC_TIME}, else 0
 * @param ordering              the order D-requests are served in
 */
public record SchedulingPolicy(String name, ServicePeriod servicePeriod, int subrounds, Limitation limitation,
                               int discreteLimit, double discretePeriodShare, QueueOrdering ordering) {

    /** Policy (a): disjoint periods, C first, D-requests in incremental FCFS order. */
    public static final SchedulingPolicy DISJOINT_INCREMENTAL_FCFS = preset("disjoint-incremental-fcfs",
        ServicePeriod.DISJOINT_C_FIRST, QueueOrdering.INCREMENTAL_FCFS);
    /** Policy (b): disjoint periods, C first, D-requests in dynamically incremental SCAN order. */
    public static final SchedulingPolicy DISJOINT_INCREMENTAL_SCAN = preset("disjoint-incremental-scan",
        ServicePeriod.DISJOINT_C_FIRST, QueueOrdering.INCREMENTAL_SCAN);
    /** Policy (c), Rondo's default: one mixed queue in dynamically incremental SCAN order. */
    public static final SchedulingPolicy MIXED_INCREMENTAL_SCAN = preset("mixed-incremental-scan",
        ServicePeriod.MIXED, QueueOrdering.INCREMENTAL_SCAN);
    /** Policy (d): one mixed queue, newcomers joining only when a sweep completes. */
    public static final SchedulingPolicy MIXED_GATED_SCAN = preset("mixed-gated-scan",
        ServicePeriod.MIXED, QueueOrdering.GATED_INCREMENTAL_SCAN);

    /** The four policies of Section 3, in the paper's order (a) to (d). */
    public static final List<SchedulingPolicy> PRESETS = List.of(
        DISJOINT_INCREMENTAL_FCFS, DISJOINT_INCREMENTAL_SCAN, MIXED_INCREMENTAL_SCAN, MIXED_GATED_SCAN);

    /** The policy Rondo schedules with unless told otherwise. */
    public static final SchedulingPolicy DEFAULT = MIXED_INCREMENTAL_SCAN;

    public SchedulingPolicy {
        if (name == null || name.isBlank()) {
            throw new PolicyException("a policy needs a name");
        }
        if (servicePeriod == null || limitation == null || ordering == null) {
            throw new PolicyException("a policy needs a service period, a limitation and a queue ordering");
        }
        if (subrounds == 0 && servicePeriod == ServicePeriod.MIXED) {
            subrounds = 1;
        }
        if (subrounds < 1) {
            throw new PolicyException(subrounds == 0
                ? "0 subrounds denotes a mixed round without separate periods (Section 2.4 (2)); a "
                    + servicePeriod.label() + " policy needs at least one C-/D-period pair"
                : "the number of subrounds must be at least 1, was " + subrounds);
        }
        if (servicePeriod == ServicePeriod.MIXED && !ordering.isScan()) {
            throw new PolicyException("a mixed service period puts C- and D-requests into one disk queue, which "
                + "SCAN orders; " + ordering.label() + " ordering of D-requests needs a D-period of their own, "
                + "so use a disjoint service period or a SCAN ordering");
        }
        if (servicePeriod == ServicePeriod.MIXED && limitation == Limitation.STATIC_TIME) {
            throw new PolicyException("a static time limit bounds a D-period, and a mixed round has no separate "
                + "D-period (Section 2.2); use a dynamic or static-number limitation");
        }
        if (limitation == Limitation.STATIC_NUMBER && discreteLimit < 1) {
            throw new PolicyException("a static number limit needs at least 1 D-request per (sub)round, was "
                + discreteLimit);
        }
        if (limitation != Limitation.STATIC_NUMBER && discreteLimit != 0) {
            throw new PolicyException("a D-request count limit applies only to the static-number limitation");
        }
        if (limitation == Limitation.STATIC_TIME && !(discretePeriodShare > 0 && discretePeriodShare < 1)) {
            throw new PolicyException("a static time limit needs a D-period share strictly between 0 and 1 of the "
                + "(sub)round, was " + discretePeriodShare);
        }
        if (limitation != Limitation.STATIC_TIME && discretePeriodShare != 0) {
            throw new PolicyException("a D-period share applies only to the static-time limitation");
        }
    }

    private static SchedulingPolicy preset(String name, ServicePeriod period, QueueOrdering ordering) {
        return new SchedulingPolicy(name, period, 1, Limitation.DYNAMIC, 0, 0, ordering);
    }

    /**
     * A preset by name ({@code mixed-incremental-scan}, ...), or a point of the framework written
     * as {@code period=disjoint-c-first,subrounds=2,limit=static-number:5,order=scan}. Omitted keys
     * take the default policy's values.
     */
    public static SchedulingPolicy parse(String spec) {
        String trimmed = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
        for (SchedulingPolicy preset : PRESETS) {
            if (preset.name.equals(trimmed)) {
                return preset;
            }
        }
        if (!trimmed.contains("=")) {
            throw new PolicyException("unknown policy '" + spec + "'; the presets are "
                + PRESETS.stream().map(SchedulingPolicy::name).collect(Collectors.joining(", "))
                + ", or give period=...,subrounds=...,limit=...,order=...");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (String part : trimmed.split(",")) {
            String[] keyValue = part.split("=", 2);
            if (keyValue.length != 2 || keyValue[1].isBlank()) {
                throw new PolicyException("'" + part.trim() + "' is not key=value in policy '" + spec + "'");
            }
            if (settings.put(keyValue[0].trim(), keyValue[1].trim()) != null) {
                throw new PolicyException("'" + keyValue[0].trim() + "' is given twice in policy '" + spec + "'");
            }
        }
        ServicePeriod period = DEFAULT.servicePeriod;
        int subrounds = DEFAULT.subrounds;
        Limitation limitation = DEFAULT.limitation;
        int discreteLimit = 0;
        double share = 0;
        QueueOrdering ordering = DEFAULT.ordering;
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            String value = setting.getValue();
            switch (setting.getKey()) {
                case "period" -> period = byLabel(ServicePeriod.values(), value, ServicePeriod::label, "period");
                case "subrounds" -> subrounds = parseInt(value, "subrounds");
                case "order" -> ordering = byLabel(QueueOrdering.values(), value, QueueOrdering::label, "order");
                case "limit" -> {
                    String[] kind = value.split(":", 2);
                    limitation = byLabel(Limitation.values(), kind[0], Limitation::label, "limit");
                    if (limitation != Limitation.DYNAMIC && kind.length != 2) {
                        throw new PolicyException("limit=" + kind[0] + " needs a value: "
                            + (limitation == Limitation.STATIC_NUMBER ? "static-number:5 (D-requests per subround)"
                                : "static-time:0.4 (the D-period's share of a subround)"));
                    }
                    if (limitation == Limitation.STATIC_NUMBER) {
                        discreteLimit = parseInt(kind[1], "limit");
                    } else if (limitation == Limitation.STATIC_TIME) {
                        share = parseDouble(kind[1], "limit");
                    } else if (kind.length == 2) {
                        throw new PolicyException("limit=dynamic takes no value");
                    }
                }
                default -> throw new PolicyException("unknown policy key '" + setting.getKey()
                    + "'; the keys are period, subrounds, limit, order");
            }
        }
        return new SchedulingPolicy(trimmed, period, subrounds, limitation, discreteLimit, share, ordering);
    }

    /** A description in the framework's own terms. */
    public String describe() {
        String limit = switch (limitation) {
            case STATIC_NUMBER -> "static-number:" + discreteLimit;
            case STATIC_TIME -> "static-time:" + discretePeriodShare;
            case DYNAMIC -> "dynamic";
        };
        return "period=" + servicePeriod.label() + ",subrounds=" + subrounds + ",limit=" + limit
            + ",order=" + ordering.label();
    }

    @Override
    public String toString() {
        return name;
    }

    private interface Labeller<E> {
        String label(E value);
    }

    private static <E> E byLabel(E[] values, String label, Labeller<E> labeller, String key) {
        for (E value : values) {
            if (labeller.label(value).equals(label)) {
                return value;
            }
        }
        throw new PolicyException("unknown " + key + " '" + label + "'; choose one of "
            + Arrays.stream(values).map(labeller::label).collect(Collectors.joining(", ")));
    }

    private static int parseInt(String value, String key) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new PolicyException(key + " must be a whole number, was '" + value + "'");
        }
    }

    private static double parseDouble(String value, String key) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new PolicyException(key + " must be a number, was '" + value + "'");
        }
    }
}
