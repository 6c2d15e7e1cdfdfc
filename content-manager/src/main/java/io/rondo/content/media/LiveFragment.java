package io.rondo.content.media;

/**
 * One round of live media, cut from what a publisher sent: a media segment ({@code moof} +
 * {@code mdat}, or a WebM {@code Cluster}) that plays after the recording's {@link LiveHeader#init()}.
 *
 * @param round         the round it presents, from the recording's start (round k starts at k T);
 *                      rounds increase by one, or more where the source had a gap shorter than a jump
 * @param startNs       when it starts on the recording's timeline: {@code round * T}
 * @param durationNs    how long it plays (T, or less for the last)
 * @param bytes         its bytes, ready to store and send
 * @param keyframeNs    presentation time of its first random access point, or
 *                      {@link io.rondo.content.model.Fragment#NO_KEYFRAME}
 * @param keyframeFirst whether its first video frame is a random access point
 */
public record LiveFragment(long round, long startNs, long durationNs, byte[] bytes, long keyframeNs,
                           boolean keyframeFirst) {

    public LiveFragment {
        if (round < 0 || startNs < 0 || durationNs < 0 || bytes.length == 0) {
            throw new IllegalArgumentException("a live fragment needs a round, start and duration >= 0 and bytes, "
                + "was round " + round + " at " + startNs + " ns for " + durationNs + " ns, " + bytes.length
                + " bytes");
        }
    }
}
