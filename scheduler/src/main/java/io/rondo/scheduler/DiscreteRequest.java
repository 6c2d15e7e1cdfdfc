package io.rondo.scheduler;

/**
 * A D-request: a read of discrete data that arrived at {@link #arrivalNs()} and is answered as soon
 * as the schedule allows (papers/001 Section 2). Its response time is completion minus arrival.
 */
public final class DiscreteRequest extends DiskRequest {

    private final long arrivalNs;
    private final long sequence;

    DiscreteRequest fifoPrevious;
    DiscreteRequest fifoNext;
    boolean inFifo;

    /**
     * @param sequence arrival order; two requests of the same {@code arrivalNs} are served in
     *                 sequence order
     */
    public DiscreteRequest(long id, long sequence, long position, long sizeBytes, long arrivalNs) {
        super(id, position, sizeBytes);
        this.sequence = sequence;
        this.arrivalNs = arrivalNs;
    }

    public long arrivalNs() {
        return arrivalNs;
    }

    public long sequence() {
        return sequence;
    }

    /** True if this request arrived before {@code other}. */
    boolean arrivedBefore(DiscreteRequest other) {
        return arrivalNs != other.arrivalNs ? arrivalNs - other.arrivalNs < 0 : sequence < other.sequence;
    }

    @Override
    public boolean isContinuous() {
        return false;
    }

    @Override
    public String toString() {
        return "D" + id() + "[@" + position() + " " + sizeBytes() + "B t=" + arrivalNs + "]";
    }
}
