package io.rondo.scheduler;

/**
 * A C-request: the fragment one stream needs for its next round (papers/001 Section 1.1). Not
 * completed by {@link #deadlineNs()}, the end of the round it was scheduled in, it is a glitch.
 */
public final class ContinuousRequest extends DiskRequest {

    private final long streamId;
    private long deadlineNs;

    public ContinuousRequest(long id, long streamId, long position, long sizeBytes) {
        super(id, position, sizeBytes);
        this.streamId = streamId;
    }

    /** The stream this fragment belongs to, by the id its server or simulator gave it. */
    public long streamId() {
        return streamId;
    }

    /** The end of the round this request belongs to; set when the round starts. */
    public long deadlineNs() {
        return deadlineNs;
    }

    void deadlineNs(long deadlineNs) {
        this.deadlineNs = deadlineNs;
    }

    @Override
    public boolean isContinuous() {
        return true;
    }

    @Override
    public String toString() {
        return "C" + id() + "[stream " + streamId + " @" + position() + " " + sizeBytes() + "B]";
    }
}
