package io.rondo.server.admin;

/**
 * The policy as {@code GET /api/v1/policy} shows it and {@code PATCH} changes it: the keys of
 * {@code rondo.yaml} that may change while the server runs, and the round length, which cannot.
 *
 * @param scheduler the scheduling policy and the round length
 * @param admission the admission policy and the discrete reserve
 * @param discrete  the D-response bound
 * @param buffers   the buffer ceiling
 * @param network   the outgoing network capacity
 */
public record PolicyView(Scheduler scheduler, Admission admission, Discrete discrete, Buffers buffers,
                         Network network) {

    /** {@code scheduler.policy} and {@code scheduler.roundMs}. */
    public record Scheduler(String policy, long roundMs) {
    }

    /** {@code admission.policy} and {@code admission.discreteReserve}. */
    public record Admission(String policy, double discreteReserve) {
    }

    /** {@code discrete.responseBound}, in milliseconds. */
    public record Discrete(long responseBoundMs) {
    }

    /** {@code buffers.ceiling}, in bytes. */
    public record Buffers(long ceilingBytes) {
    }

    /** {@code network.capacity} in bits a second; null for unlimited. */
    public record Network(Long capacityBitsPerSecond) {
    }

    /** The answer to a PATCH: the policy now, from when it applies, and how many running streams exceed it. */
    public record Change(PolicyView policy, String appliesFrom, int exceedingStreams) {
    }
}
