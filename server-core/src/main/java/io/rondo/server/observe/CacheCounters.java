package io.rondo.server.observe;

import io.micrometer.core.instrument.MeterRegistry;

/** What a memory cache of objects counts, for its meters: the HTTP port's hot-object cache is one. */
public interface CacheCounters {

    /** Requests answered from memory. */
    long hits();

    /** Requests for a cacheable object that was not in memory. */
    long misses();

    /** Body bytes sent from memory. */
    long bytesServedFromMemory();

    /** Bytes the cache holds now. */
    long cachedBytes();

    /** The most bytes the cache may hold. */
    long maxTotalBytes();

    /** Binds the cache's own meters (its library's statistics) to {@code registry}. */
    void bindTo(MeterRegistry registry);
}
