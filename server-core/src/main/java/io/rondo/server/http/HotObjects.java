package io.rondo.server.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.server.config.HttpSettings;

import java.util.concurrent.atomic.LongAdder;

/**
 * Small hot discrete objects held whole in memory, so that serving them again reads no disk: a
 * body of such an object is built from the cached bytes, whole, ranges and multipart alike.
 *
 * <p>An entry is keyed by the object's id and its etag, so an object replaced under the same name
 * (a new id, and a new etag where its content changed) is never served from the old bytes. The
 * bytes are put here after the object was read whole from disk through the D-request path; the
 * cache itself never reads a disk and never computes on the caller's thread. The total of the
 * cached bytes is bounded (Caffeine's size-aware eviction, W-TinyLFU); eviction runs on the
 * thread that puts, so the bound holds once a put returns, without a pool thread.
 *
 * <p>Hits, misses and the bytes served from memory are counted for the server's metrics. Only
 * bodies count: a HEAD, a 304 or a 416 reads nothing either way.
 */
public final class HotObjects {

    private record Key(long id, String etag) {
    }

    private final int maxObjectBytes;
    private final long maxTotalBytes;
    private final Cache<Key, byte[]> cache;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bytesServedFromMemory = new LongAdder();

    /** With the default limits: objects up to 64 KiB, 16 MiB in all. */
    public HotObjects() {
        this(HttpSettings.DEFAULT_HOT_OBJECT_MAX, HttpSettings.DEFAULT_HOT_OBJECTS_TOTAL);
    }

    /**
     * @param maxObjectBytes the largest object cached; 0 caches nothing
     * @param maxTotalBytes  the most bytes cached in all
     */
    public HotObjects(int maxObjectBytes, long maxTotalBytes) {
        if (maxObjectBytes < 0 || maxTotalBytes < 0) {
            throw new IllegalArgumentException("the hot-object limits cannot be negative: " + maxObjectBytes
                + " per object, " + maxTotalBytes + " in all");
        }
        this.maxObjectBytes = maxObjectBytes;
        this.maxTotalBytes = maxTotalBytes;
        this.cache = Caffeine.newBuilder()
            .maximumWeight(maxTotalBytes)
            .weigher((Key key, byte[] bytes) -> bytes.length)
            .executor(Runnable::run)
            .recordStats()
            .build();
    }

    /** Binds Caffeine's own meters of this cache (gets by hit and miss, evictions, size) to {@code registry}. */
    public void bindTo(io.micrometer.core.instrument.MeterRegistry registry) {
        io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics.monitor(registry, cache, "hot-objects");
    }

    /** Whether an object is one this cache holds: discrete, and no larger than the limit. */
    boolean cacheable(MediaObject object) {
        return object.kind() == Kind.DISCRETE && object.size() > 0 && object.size() <= maxObjectBytes;
    }

    /** The object's whole bytes if cached (a hit), else null (a miss). The array must not be changed. */
    byte[] lookUp(MediaObject object) {
        byte[] bytes = cache.getIfPresent(new Key(object.id(), object.etag()));
        if (bytes == null) {
            misses.increment();
        } else {
            hits.increment();
        }
        return bytes;
    }

    /** Caches an object's whole bytes, just read from disk; the array is the cache's from now on. */
    void put(MediaObject object, byte[] bytes) {
        if (cacheable(object) && bytes.length == object.size()) {
            cache.put(new Key(object.id(), object.etag()), bytes);
        }
    }

    /** Counts body bytes sent from the cache rather than read from a disk. */
    void servedFromMemory(long bytes) {
        bytesServedFromMemory.add(bytes);
    }

    /** Bodies served from memory. */
    public long hits() {
        return hits.sum();
    }

    /** Bodies of cacheable objects that had to be read from disk. */
    public long misses() {
        return misses.sum();
    }

    /** Object bytes sent from memory: bytes no disk had to read. */
    public long bytesServedFromMemory() {
        return bytesServedFromMemory.sum();
    }

    /** The bytes cached now, after any pending eviction. */
    public long cachedBytes() {
        cache.cleanUp();
        return cache.policy().eviction().orElseThrow().weightedSize().orElseThrow();
    }

    /** The objects cached now. */
    public long cachedObjects() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    public int maxObjectBytes() {
        return maxObjectBytes;
    }

    public long maxTotalBytes() {
        return maxTotalBytes;
    }
}
