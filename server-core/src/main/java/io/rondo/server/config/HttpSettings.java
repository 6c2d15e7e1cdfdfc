package io.rondo.server.config;

/**
 * The HTTP port's limits and buffers, {@code http:} in {@code rondo.yaml}. Each key's default is
 * the constant beside it; sizes are bytes, written with K, M, G (powers of 1024).
 *
 * @param maxRequestLineBytes  {@code http.maxRequestLine}: the longest request line (longer: 414)
 * @param maxHeaderBytes       {@code http.maxHeaders}: the most header bytes (more: 431)
 * @param maxBodyBytes         {@code http.maxBody}: the largest request body (larger: 413)
 * @param idleTimeoutSeconds   {@code http.idleTimeoutSeconds}: how long a connection may sit idle between requests
 * @param headerTimeoutMs      {@code http.headerTimeout}: how long a request may take to arrive whole, from its first
 *                             byte (later: 408, and the connection closes)
 * @param maxRanges            {@code http.maxRanges}: the most ranges one request may ask for (more: the whole object)
 * @param writeBufferLowBytes  {@code http.writeBufferLow}: a connection writable again below this many bytes queued
 * @param writeBufferHighBytes {@code http.writeBufferHigh}: a connection stops taking body chunks above this
 * @param hotObjectMaxBytes    {@code http.hotObjectMax}: the largest object the hot-object cache keeps
 * @param hotObjectsTotalBytes {@code http.hotObjectsTotal}: the most bytes the hot-object cache keeps in all;
 *                             {@code auto} (the default) is {@link #DEFAULT_HOT_OBJECTS_TOTAL}
 */
public record HttpSettings(int maxRequestLineBytes, int maxHeaderBytes, int maxBodyBytes, int idleTimeoutSeconds,
                           long headerTimeoutMs, int maxRanges, int writeBufferLowBytes, int writeBufferHighBytes,
                           int hotObjectMaxBytes, long hotObjectsTotalBytes) {

    /** {@code http.maxRequestLine}. */
    public static final int DEFAULT_MAX_REQUEST_LINE = 8 * 1024;
    /** {@code http.maxHeaders}. */
    public static final int DEFAULT_MAX_HEADERS = 16 * 1024;
    /** {@code http.maxBody}: Rondo takes no uploads on this port. */
    public static final int DEFAULT_MAX_BODY = 64 * 1024;
    /** {@code http.idleTimeoutSeconds}. */
    public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 60;
    /**
     * {@code http.headerTimeout}: ample for any client on any network, short enough that a client
     * sending its header a byte at a time cannot hold a connection for long.
     */
    public static final long DEFAULT_HEADER_TIMEOUT_MS = 10_000;
    /** {@code http.maxRanges}. */
    public static final int DEFAULT_MAX_RANGES = 32;
    /** {@code http.writeBufferLow}. */
    public static final int DEFAULT_WRITE_BUFFER_LOW = 256 * 1024;
    /** {@code http.writeBufferHigh}. */
    public static final int DEFAULT_WRITE_BUFFER_HIGH = 1024 * 1024;
    /** {@code http.hotObjectMax}: documents, images and pages, not whole films. */
    public static final int DEFAULT_HOT_OBJECT_MAX = 8 << 20;
    /**
     * {@code http.hotObjectsTotal: auto}: one eighth of the direct memory this JVM may use
     * ({@code -XX:MaxDirectMemorySize}, by default the heap's maximum), where the cached bytes
     * live, and at least 16 MiB.
     */
    public static final long DEFAULT_HOT_OBJECTS_TOTAL =
        MemoryBudget.autoHotObjects(DirectMemory.maxBytes(), BufferSettings.autoCeilingBytes());

    /** Checks every limit once. */
    public HttpSettings {
        Settings.positive(maxRequestLineBytes, "http.maxRequestLine");
        Settings.positive(maxHeaderBytes, "http.maxHeaders");
        Settings.positive(maxBodyBytes, "http.maxBody");
        Settings.positive(idleTimeoutSeconds, "http.idleTimeoutSeconds");
        Settings.positive(headerTimeoutMs, "http.headerTimeout");
        Settings.positive(maxRanges, "http.maxRanges");
        Settings.positive(hotObjectMaxBytes, "http.hotObjectMax");
        Settings.positive(hotObjectsTotalBytes, "http.hotObjectsTotal");
        Settings.waterMarks(writeBufferLowBytes, writeBufferHighBytes, "http");
    }

    /**
     * The section as written: what it says, the defaults for the rest; {@code hotObjectsTotal: auto}
     * beside a buffer ceiling of {@code buffersCeilingBytes}.
     */
    static HttpSettings read(Section written, long buffersCeilingBytes) {
        return new HttpSettings(
            Settings.size(written.maxRequestLine(), "http.maxRequestLine", DEFAULT_MAX_REQUEST_LINE),
            Settings.size(written.maxHeaders(), "http.maxHeaders", DEFAULT_MAX_HEADERS),
            Settings.size(written.maxBody(), "http.maxBody", DEFAULT_MAX_BODY),
            Settings.orDefault(written.idleTimeoutSeconds(), DEFAULT_IDLE_TIMEOUT_SECONDS),
            Settings.duration(written.headerTimeout(), "http.headerTimeout", DEFAULT_HEADER_TIMEOUT_MS),
            Settings.orDefault(written.maxRanges(), DEFAULT_MAX_RANGES),
            Settings.size(written.writeBufferLow(), "http.writeBufferLow", DEFAULT_WRITE_BUFFER_LOW),
            Settings.size(written.writeBufferHigh(), "http.writeBufferHigh", DEFAULT_WRITE_BUFFER_HIGH),
            Settings.size(written.hotObjectMax(), "http.hotObjectMax", DEFAULT_HOT_OBJECT_MAX),
            written.hotObjectsTotal() == null || written.hotObjectsTotal().equals(RondoConfig.AUTO)
                ? MemoryBudget.autoHotObjects(DirectMemory.maxBytes(), buffersCeilingBytes)
                : ByteSizes.parse(written.hotObjectsTotal(), "http.hotObjectsTotal"));
    }

    /** Every key at its default. */
    public static HttpSettings defaults() {
        return new HttpSettings(DEFAULT_MAX_REQUEST_LINE, DEFAULT_MAX_HEADERS, DEFAULT_MAX_BODY,
            DEFAULT_IDLE_TIMEOUT_SECONDS, DEFAULT_HEADER_TIMEOUT_MS, DEFAULT_MAX_RANGES, DEFAULT_WRITE_BUFFER_LOW,
            DEFAULT_WRITE_BUFFER_HIGH, DEFAULT_HOT_OBJECT_MAX, DEFAULT_HOT_OBJECTS_TOTAL);
    }

    /** These settings with {@code http.headerTimeout} at {@code timeoutMs}. */
    public HttpSettings withHeaderTimeoutMs(long timeoutMs) {
        return new HttpSettings(maxRequestLineBytes, maxHeaderBytes, maxBodyBytes, idleTimeoutSeconds, timeoutMs,
            maxRanges, writeBufferLowBytes, writeBufferHighBytes, hotObjectMaxBytes, hotObjectsTotalBytes);
    }

    /**
     * {@code http:} as the file writes it; a key left out is null. Its connection limits are read
     * by {@link ConnectionSettings}.
     */
    record Section(String maxRequestLine, String maxHeaders, String maxBody, Integer idleTimeoutSeconds,
                   String headerTimeout, Integer maxRanges, String writeBufferLow, String writeBufferHigh,
                   String hotObjectMax, String hotObjectsTotal, String maxConnections,
                   String maxConnectionsPerAddress) {
        static final Section EMPTY = new Section(null, null, null, null, null, null, null, null, null, null, null,
            null);
    }
}
