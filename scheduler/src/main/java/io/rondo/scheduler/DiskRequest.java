package io.rondo.scheduler;

/**
 * One read for one disk: a C-request (a stream's fragment for a round) or a D-request (a piece
 * of discrete data), papers/001 Section 2.
 *
 * <p>A request carries a little of the scheduler's bookkeeping (its estimated cost, when it was
 * issued, its links in the fifo queue) so that scheduling allocates nothing per request.
 */
public abstract sealed class DiskRequest permits ContinuousRequest, DiscreteRequest {

    /** The rotational delay of a request whose delay nobody knows: the scheduler assumes the worst. */
    public static final long UNKNOWN_ROTATION = -1;

    private final long id;
    private final long position;
    private final long sizeBytes;
    private long rotationNs = UNKNOWN_ROTATION;
    private Object attachment;

    long estimatedCostNs;
    long issuedNs;

    DiskRequest(long id, long position, long sizeBytes) {
        if (position < 0) {
            throw new IllegalArgumentException("position must not be negative, was " + position);
        }
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("size must be positive, was " + sizeBytes);
        }
        this.id = id;
        this.position = position;
        this.sizeBytes = sizeBytes;
    }

    /** The caller's identifier for this request. */
    public long id() {
        return id;
    }

    /** The physical byte address on the device the read starts at. */
    public long position() {
        return position;
    }

    public long sizeBytes() {
        return sizeBytes;
    }

    /** The rotational delay, if the driver knows it (the omniscient variant of Section 5.5). */
    public long rotationNs() {
        return rotationNs;
    }

    /** Tells the scheduler this request's rotational delay, so it need not assume a full revolution. */
    public void knownRotationNs(long rotationNs) {
        if (rotationNs < 0) {
            throw new IllegalArgumentException("rotational delay must not be negative, was " + rotationNs);
        }
        this.rotationNs = rotationNs;
    }

    /** The driver's own data for this request (what to read, whom to tell); the scheduler never looks. */
    public Object attachment() {
        return attachment;
    }

    /** Attaches the driver's own data; returns this request. */
    public DiskRequest attach(Object data) {
        this.attachment = data;
        return this;
    }

    /** When the scheduler issued this request; meaningful once it has. */
    public long issuedNs() {
        return issuedNs;
    }

    /** True for a C-request. */
    public abstract boolean isContinuous();
}
