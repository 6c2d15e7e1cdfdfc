package io.rondo.scheduler.policy;

/**
 * Dimension (4) of papers/001 Section 2.4: the order D-requests are served in. C-requests are
 * always served in SCAN order, and D-requests are always selected FCFS (Section 2.3).
 */
public enum QueueOrdering {
    /** D-requests in arrival order; those arriving during a period wait for the next one. */
    FCFS("fcfs", false, false),
    /** D-requests in arrival order, newcomers taken as long as the period lasts. */
    INCREMENTAL_FCFS("incremental-fcfs", false, true),
    /** D-requests chosen at the start of the period, served in SCAN order. */
    SCAN("scan", true, false),
    /** SCAN, with newcomers merged into the sweep if they lie ahead of the head. */
    INCREMENTAL_SCAN("incremental-scan", true, true),
    /** SCAN, with newcomers taken only when a sweep completes. */
    GATED_INCREMENTAL_SCAN("gated-incremental-scan", true, true);

    private final String label;
    private final boolean scan;
    private final boolean incremental;

    QueueOrdering(String label, boolean scan, boolean incremental) {
        this.label = label;
        this.scan = scan;
        this.incremental = incremental;
    }

    public String label() {
        return label;
    }

    /** True if D-requests go through the scan list; false if they are served straight from the fifo queue. */
    public boolean isScan() {
        return scan;
    }

    /** True if D-requests arriving during a period may still be served in it. */
    public boolean isIncremental() {
        return incremental;
    }
}
