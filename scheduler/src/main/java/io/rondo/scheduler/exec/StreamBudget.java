package io.rondo.scheduler.exec;

/**
 * What a stream's reads may hold in a {@link BufferPool} (papers/004 Section 4): buffers of at
 * most {@code bufferBytes}, {@code ownBuffers} of them reserved for the stream alone, and up to
 * {@code sharedBuffers} more drawn on the shared account {@code sharedAccount}, whose size
 * admission keeps at the most its streams can hold at once.
 *
 * <p>A double-buffered stream owns two and shares none; one whose client buffers what is sent
 * ahead (ClBuf) owns one and shares its second; one whose client also receives fast (ClBufRate)
 * owns none. A buffer may hold more than one fragment (a read of several at once): its size is
 * the budget's, not a fragment's.
 *
 * @param ownBuffers    buffers reserved for the stream alone
 * @param bufferBytes   the capacity of each (a power of two, {@link BufferPool#classCapacity})
 * @param sharedAccount the shared account the rest are drawn on, or null for none
 * @param sharedBuffers the most the stream draws on it at once
 */
public record StreamBudget(int ownBuffers, int bufferBytes, String sharedAccount, int sharedBuffers) {

    public StreamBudget {
        if (ownBuffers < 0 || sharedBuffers < 0 || ownBuffers + sharedBuffers == 0) {
            throw new IllegalArgumentException("a stream needs at least one buffer, own or shared; was " + ownBuffers
                + " own and " + sharedBuffers + " shared");
        }
        if (bufferBytes != BufferPool.classCapacity(bufferBytes)) {
            throw new IllegalArgumentException("a buffer's capacity is a size class, was " + bufferBytes);
        }
        if ((sharedAccount == null) != (sharedBuffers == 0)) {
            throw new IllegalArgumentException("shared buffers need a shared account to draw on, and only they do");
        }
    }

    /** Two buffers of the class holding {@code maxFragmentBytes}, both the stream's own (DblBuf). */
    public static StreamBudget doubleBuffer(int maxFragmentBytes) {
        return new StreamBudget(2, BufferPool.classCapacity(maxFragmentBytes), null, 0);
    }

    /** {@code own} buffers of the class holding {@code maxFragmentBytes}, the rest of two on {@code account}. */
    public static StreamBudget sharing(int own, int maxFragmentBytes, String account) {
        return new StreamBudget(own, BufferPool.classCapacity(maxFragmentBytes), account, 2 - own);
    }

    /** The bytes reserved for the stream alone. */
    public long ownBytes() {
        return (long) ownBuffers * bufferBytes;
    }

    /** The most buffers the stream holds at once. */
    public int maxBuffers() {
        return ownBuffers + sharedBuffers;
    }
}
