package io.rondo.scheduler.admission;

import java.util.Locale;

/**
 * The answer to a new stream (DESIGN: {@code ACCEPT} with the stream's parameters, or
 * {@code REJECT} with a reason and a retry-after).
 */
public sealed interface AdmissionDecision {

    /** The stream asked about. */
    long streamId();

    /** True for {@link Accept}. */
    boolean accepted();

    /** A human-readable account, for logs and the client. */
    String reason();

    /** A resource that can run short. */
    enum Resource {
        /** A disk's round: the C-requests and the D-reserve must fit its length. */
        DISK_TIME("disk-time"),
        /** The buffers that double buffering takes: two peak fragments per stream. */
        BUFFER_MEMORY("buffer-memory"),
        /** The outgoing network: each stream sends one fragment a round. */
        NETWORK("network"),
        /**
         * What the streams admitted really get: their fragments leave too close to their deadlines
         * ({@link DeliverySlack}), so the cores, the sender or the link are at their measured limit.
         */
        DELIVERY("delivery"),
        /**
         * A disk's round, before it is measured: more streams than half again as many as its
         * recent rounds read and fitted ({@link MeasuredRounds#measuredLimit}); a round from now
         * it may take more.
         */
        MEASURING("measuring");

        private final String label;

        Resource(String label) {
            this.label = label;
        }

        /** {@code disk-time}, {@code buffer-memory}, {@code network}, {@code delivery} or {@code measuring}. */
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
     * @param cadence  how often it reads: the rounds it was charged in
     */
    record Accept(long streamId, AdmissionPolicy policy, Cadence cadence) implements AdmissionDecision {

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
     * @param needed            nanoseconds of the round with the stream added, as measured where the
     *                          disk's rounds took longer than modelled; bytes of buffer memory the
     *                          stream needs; bits a second the streams would send with it added;
     *                          for {@link Resource#DELIVERY}, the least slack a new stream needs, in
     *                          nanoseconds; for {@link Resource#MEASURING}, the streams on the disk
     *                          with it
     * @param available         nanoseconds of the round available to C-requests; bytes of buffer
     *                          memory free; bits a second of network capacity; for
     *                          {@link Resource#DELIVERY}, the least slack measured, in nanoseconds;
     *                          for {@link Resource#MEASURING}, the streams the disk may hold now
     * @param retryAfterSeconds when asking again may succeed: at least 1; 0 if it never will, the
     *                          stream alone being too much for the resource
     * @param inflation         for {@link Resource#DISK_TIME}, by how much the disk's last rounds took
     *                          longer than its model says ({@link MeasuredRounds}), already in
     *                          {@code needed}; 1 where the model alone refused, and for the others
     */
    record Reject(long streamId, Resource resource, String disk, long needed, long available,
                  long retryAfterSeconds, double inflation) implements AdmissionDecision {

        /** A refusal by the model alone. */
        public Reject(long streamId, Resource resource, String disk, long needed, long available,
                      long retryAfterSeconds) {
            this(streamId, resource, disk, needed, available, retryAfterSeconds, 1);
        }

        @Override
        public boolean accepted() {
            return false;
        }

        /** False if the stream alone exceeds the resource: no amount of waiting admits it. */
        public boolean retryable() {
            return retryAfterSeconds > 0;
        }

        /**
         * What is short, by how much, and what to do: retry later, or, where waiting cannot help
         * or a setting is the limit, which setting raises it.
         */
        @Override
        public String reason() {
            String shortage = switch (resource) {
                case DISK_TIME -> String.format(Locale.ROOT, "disk-time on disk %s: the round with the stream added "
                    + "would need %.1f ms of the %.1f ms available", disk, needed / 1e6, available / 1e6)
                    + (inflation > 1 ? String.format(Locale.ROOT, " (as measured: its last rounds took %.2f times "
                    + "what its model says)", inflation) : "");
                case BUFFER_MEMORY -> "buffer-memory: needs " + needed + " bytes, " + available + " free under the "
                    + "buffer ceiling (raise buffers.ceiling in rondo.yaml; its default, auto, is half the JVM's "
                    + "direct memory, which RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize=SIZE raises)";
                case NETWORK -> String.format(Locale.ROOT, "network: the streams with this one added would send "
                    + "%.1f Mbit/s, past the %.1f Mbit/s of network.capacity in rondo.yaml (raise it if the link "
                    + "is faster)", needed / 1e6, available / 1e6);
                case MEASURING -> String.format(Locale.ROOT, "measuring on disk %s: its last rounds read and fitted "
                    + "streams enough for %d at most until a round with more has ended; this would be stream %d",
                    disk, available, needed);
                case DELIVERY -> String.format(Locale.ROOT, "delivery: the streams' fragments left as little as %.1f "
                    + "ms before their deadlines in the last rounds, under the %.1f ms a new stream needs beside them "
                    + "(the server's cores or link are at their measured limit)", available / 1e6, needed / 1e6);
            };
            return "stream " + streamId + " rejected, " + shortage
                + (retryable() ? "; retry after " + retryAfterSeconds + " s" : "; it does not fit even alone");
        }
    }
}
