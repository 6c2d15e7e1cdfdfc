package io.rondo.scheduler.policy;

/** Dimension (1) of papers/001 Section 2.4: how C- and D-requests share a (sub)round. */
public enum ServicePeriod {
    /** C- and D-requests in one disk queue, interleaved as the sweep finds them. */
    MIXED("mixed"),
    /** A C-period, then a D-period. */
    DISJOINT_C_FIRST("disjoint-c-first"),
    /** A D-period, then a C-period. */
    DISJOINT_D_FIRST("disjoint-d-first");

    private final String label;

    ServicePeriod(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public boolean isDisjoint() {
        return this != MIXED;
    }
}
