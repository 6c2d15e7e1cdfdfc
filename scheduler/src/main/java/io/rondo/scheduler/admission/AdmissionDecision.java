package io.rondo.scheduler.admission;

import java.util.Locale;

/**
 * The answer to a new stream (DESIGN: {@code ACCEPT} with the stream's parameters, or
 * {@code REJECT} with a reason and a retry-after).
 */
public sealed interface AdmissionDecision {

    /** The stream asked about. */
    String streamId();

    /** True for {@link Accept}. */
    boolean accepted();

    /** A human-readable account, for logs and the client. */
    String reason();

    /** A resource that can run short. */
    enum Resource {
        /** A disk's round: the C-requests and the D-reserve must fit its length. */
        DISK_TIME("disk-time"),
        /** The buffers that double buffering takes: two peak fragments per stream. */
        BUFFER_MEMORY("buffer-memory");

        private final String label;

        Resource(String label) {
            this.label = label;
        }

        /** {@code disk-time} or {@code buffer-memory}: the name the protocol and metrics use. */
        public String label() {
            return label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /**
     * The stream fits.
     *
     * @param streamId the stream
     * @param policy   the policy that judged it
     */
    record Accept(String streamId, AdmissionPolicy policy) implements AdmissionDecision {

        @Override
        public boolean accepted() {
            return true;
        }

        @Override
        public String reason() {
            return "stream " + streamId + " fits (" + policy + ")";
        }
    }

    /**
     * The stream does not fit: the first resource found short, by how much, and when to ask again.
     *
     * @param streamId          the stream
     * @param resource          the resource that is short
     * @param disk              the disk whose round is full, for {@link Resource#DISK_TIME}; else {@code null}
     * @param needed            with the stream added: nanoseconds of the round, or bytes of buffer memory
     * @param available         nanoseconds of the round available to C-requests, or bytes of buffer memory free
     * @param retryAfterSeconds when asking again may succeed: at least 1; 0 if it never will, the
     *                          stream alone being too much for the resource
     */
    record Reject(String streamId, Resource resource, String disk, long needed, long available,
                  long retryAfterSeconds) implements AdmissionDecision {

        @Override
        public boolean accepted() {
            return false;
        }

        /** False if the stream alone exceeds the resource: no amount of waiting admits it. */
        public boolean retryable() {
            return retryAfterSeconds > 0;
        }

        @Override
        public String reason() {
            String shortage = resource == Resource.DISK_TIME
                ? String.format(Locale.ROOT, "disk-time on disk %s: the round with the stream added would need "
                    + "%.1f ms of the %.1f ms available", disk, needed / 1e6, available / 1e6)
                : "buffer-memory: needs " + needed + " bytes, " + available + " free";
            return "stream " + streamId + " rejected, " + shortage
                + (retryable() ? "; retry after " + retryAfterSeconds + " s" : "; it does not fit even alone");
        }
    }
}
