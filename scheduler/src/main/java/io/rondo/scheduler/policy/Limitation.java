package io.rondo.scheduler.policy;

/** Dimension (3) of papers/001 Section 2.4: how many D-requests a (sub)round takes. */
public enum Limitation {
    /**
     * At most a fixed number of D-requests per (sub)round, whatever their sizes. No estimate is
     * consulted, so nothing keeps them from pushing C-requests past their round: the reason
     * Section 3 prefers the dynamic limitation.
     */
    STATIC_NUMBER("static-number"),
    /** A D-period of fixed length per (sub)round. */
    STATIC_TIME("static-time"),
    /** As many D-requests as the estimated service time leaves room for, (sub)round by (sub)round. */
    DYNAMIC("dynamic");

    private final String label;

    Limitation(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
