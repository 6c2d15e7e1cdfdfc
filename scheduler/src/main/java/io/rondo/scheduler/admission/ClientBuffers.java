package io.rondo.scheduler.admission;

/**
 * What a stream's client lets the server save in buffer memory (papers/004 Sections 4 and 5):
 * the {@link BufferMode} it got, and, for a mode that shares, the numbers its bound is made of.
 *
 * @param mode             how its buffers are reserved
 * @param bufferBytes      the capacity of one of its buffers (the pool's size class of its largest
 *                         fragment); 0 for {@link BufferMode#DOUBLE}, charged at its peak fragment
 * @param holdNs           the longest one of its fragments may be held after its read ends: its
 *                         send at the client's declared rate, plus the server's grace; past it the
 *                         stream loses its place (the guard), so a fragment is never held longer
 * @param smallestFragment the least bytes one of its reads reads: the fastest a disk fills its buffers
 */
public record ClientBuffers(BufferMode mode, long bufferBytes, long holdNs, long smallestFragment) {

    /** Double buffering: nothing shared, nothing to bound. */
    public static final ClientBuffers DOUBLE = new ClientBuffers(BufferMode.DOUBLE, 0, 0, 0);

    public ClientBuffers {
        if (mode != BufferMode.DOUBLE && (bufferBytes <= 0 || holdNs <= 0 || smallestFragment <= 0)) {
            throw new IllegalArgumentException(mode + " needs a buffer size, a hold time and a smallest fragment, were "
                + bufferBytes + " B, " + holdNs + " ns and " + smallestFragment + " B");
        }
    }
}
