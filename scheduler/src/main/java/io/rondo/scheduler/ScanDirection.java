package io.rondo.scheduler;

/** The direction of a disk sweep over the scan list (papers/001 Figure 7). */
public enum ScanDirection {
    /** Towards higher positions: the scan list is served from its head. */
    FORWARD,
    /** Towards lower positions: the scan list is served from its tail. */
    BACKWARD,
    /** No sweep in progress: the next fill chooses. */
    UNDEFINED
}
