package io.rondo.server.config;

import io.rondo.scheduler.device.DiskIo;

/**
 * The read buffers, {@code buffers:} in {@code rondo.yaml}: the most memory all read buffers
 * together may take (when it is taken, admission refuses new streams), and how far a client's
 * declared buffer and rate shrink what its stream reserves (docs/client-buffers.md).
 *
 * @param ceiling       {@code buffers.ceiling} as written: {@value RondoConfig#AUTO} (the default) or a size
 *                      ({@code 256M})
 * @param ceilingBytes  {@code buffers.ceiling} in bytes: for {@code auto}, {@link #autoCeilingBytes()}
 * @param clientBuffers {@code buffers.clientBuffers}: rate (the default), buffer or off
 */
public record BufferSettings(String ceiling, long ceilingBytes, ClientBufferUse clientBuffers) {

    /** {@code buffers.ceiling}. */
    public static final String DEFAULT_CEILING = RondoConfig.AUTO;
    /** The share of the JVM's direct memory an {@code auto} ceiling takes; Netty and the rest keep the other. */
    public static final double AUTO_CEILING_SHARE = 0.5;

    /** {@code buffers.clientBuffers}: the most each client can save, where that is safe. */
    public static final ClientBufferUse DEFAULT_CLIENT_BUFFERS = ClientBufferUse.RATE;

    /** Checks the ceiling once. */
    public BufferSettings {
        Settings.positive(ceilingBytes, "buffers.ceiling");
        if (clientBuffers == null) {
            throw new IllegalArgumentException("buffers.clientBuffers must be rate, buffer or off");
        }
    }

    /** The section as written: what it says, the default for the rest. */
    static BufferSettings read(Section written) {
        String ceiling = Settings.orDefault(written.ceiling(), DEFAULT_CEILING);
        ClientBufferUse clientBuffers = written.clientBuffers() == null ? DEFAULT_CLIENT_BUFFERS
            : ClientBufferUse.parse(written.clientBuffers());
        long ceilingBytes;
        try {
            ceilingBytes = RondoConfig.AUTO.equals(ceiling) ? autoCeilingBytes()
                : ByteSizes.parse(ceiling, "buffers.ceiling");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (or auto: half the JVM's direct memory)", e);
        }
        return new BufferSettings(ceiling, ceilingBytes, clientBuffers);
    }

    /** {@code buffers.ceiling: auto} in bytes: {@link #AUTO_CEILING_SHARE} of the JVM's direct memory. */
    public static long autoCeilingBytes() {
        return Math.max(DiskIo.ALIGNMENT, (long) (DirectMemory.maxBytes() * AUTO_CEILING_SHARE));
    }

    /** Whether {@code buffers.ceiling} is {@code auto}: a share of the JVM's direct memory. */
    public boolean auto() {
        return RondoConfig.AUTO.equals(ceiling);
    }

    /**
     * The ceiling for people: {@code 3 GiB (auto: half the JVM's 6 GiB of direct memory, ...)}, or
     * {@code 256 MiB (buffers.ceiling)}, with a warning where a set ceiling passes the JVM's direct
     * memory, which would fail reads before admission refused a stream.
     */
    public String describe() {
        long directBytes = DirectMemory.maxBytes();
        String direct = ByteSizes.format(directBytes) + " of direct memory, "
            + (DirectMemory.configured() ? "set by -XX:MaxDirectMemorySize" : "by default its maximum heap");
        if (auto()) {
            return ByteSizes.format(ceilingBytes) + " (auto: half the JVM's " + direct + ")";
        }
        return ByteSizes.format(ceilingBytes) + " (buffers.ceiling)" + (ceilingBytes <= directBytes ? ""
            : "; WARNING: more than the JVM's " + direct + ": raise it with RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize="
            + "SIZE, or reads may fail for memory before admission refuses a stream");
    }

    /** {@code buffers:} as the file writes it; a key left out is null. */
    record Section(String ceiling, String clientBuffers) {
        static final Section EMPTY = new Section(null, null);
    }
}
