package io.rondo.scheduler.admission;

/**
 * An admitted stream: what it asked for (to charge it again when the policy changes), its
 * charge under the policy in force and, if known, when it ends.
 */
record AdmittedStream(StreamDemand demand, Charge charge, long endNs, boolean endKnown) {
}
