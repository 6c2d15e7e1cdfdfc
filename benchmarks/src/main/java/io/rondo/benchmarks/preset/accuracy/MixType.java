package io.rondo.benchmarks.preset.accuracy;

/**
 * The stream mixes of papers/000 Table 1: homogeneous constant bit rate (C), variable bit rate
 * with the same average (V), and heterogeneous constant bit rates around the average (H).
 */
public enum MixType {
    /** Every stream at the row's bit rate, every fragment the same size. */
    C("homogeneous CBR"),
    /** Every stream averaging the row's bit rate, each fragment's size drawn from a Gamma distribution. */
    V("VBR, same average"),
    /** Each stream at its own constant bit rate, from a tenth of the average to several times it. */
    H("heterogeneous CBR");

    private final String description;

    MixType(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
