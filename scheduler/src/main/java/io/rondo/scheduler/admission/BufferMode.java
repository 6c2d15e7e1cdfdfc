package io.rondo.scheduler.admission;

import java.util.Locale;

/**
 * How a stream's buffer memory is reserved, by what its client can do (papers/004 Section 4,
 * Figures 20-22).
 *
 * <ul>
 *   <li>{@link #DOUBLE} (DblBuf): two buffers of its largest fragment, its own: the one being
 *       sent and the one being read. Every client gets this.</li>
 *   <li>{@link #CLIENT_BUFFER} (ClBuf): the client's buffer holds the fragments sent ahead, so a
 *       fragment goes as soon as it is read and the server holds what is being read and sent:
 *       one buffer of its own, its second only while a read overlaps the previous fragment's send,
 *       drawn on an account shared by all such streams.</li>
 *   <li>{@link #CLIENT_RATE} (ClBufRate): the client also receives fast, so each fragment leaves
 *       within a small part of the round after its read: no buffer of its own, every buffer drawn
 *       on a shared account bounded by what the disks can read within that time.</li>
 * </ul>
 */
public enum BufferMode {
    DOUBLE(2),
    CLIENT_BUFFER(1),
    CLIENT_RATE(0);

    private final int ownBuffers;

    BufferMode(int ownBuffers) {
        this.ownBuffers = ownBuffers;
    }

    /** The paper's name: DblBuf, ClBuf, ClBufRate. */
    public String paperName() {
        return switch (this) {
            case DOUBLE -> "DblBuf";
            case CLIENT_BUFFER -> "ClBuf";
            case CLIENT_RATE -> "ClBufRate";
        };
    }

    /** The name in metrics, the admin API and logs: dblbuf, clbuf, clbufrate. */
    public String label() {
        return paperName().toLowerCase(Locale.ROOT);
    }

    /** Buffers reserved for the stream alone, of its two. */
    public int ownBuffers() {
        return ownBuffers;
    }

    /** The shared account the rest are drawn on ({@link #label()}), or null for {@link #DOUBLE}. */
    public String sharedAccount() {
        return this == DOUBLE ? null : label();
    }
}
