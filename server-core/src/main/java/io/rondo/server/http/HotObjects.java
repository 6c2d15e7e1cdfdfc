package io.rondo.server.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.observe.CacheCounters;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hot discrete objects held whole in memory, so that serving them again reads no disk: a body of
 * such an object is built from the cached bytes, whole, ranges and multipart alike.
 *
 * <p>An entry is keyed by the object's id and its etag, so an object replaced under the same name
 * (a new id, and a new etag where its content changed) is never served from the old bytes. The
 * bytes are put here after the object was read whole from disk through the D-request path; the
 * cache itself never reads a disk and never computes on the caller's thread. The total of the
 * cached bytes is bounded by a byte budget (Caffeine's size-aware eviction, W-TinyLFU), whatever
 * the objects' sizes up to the per-object limit; eviction runs on the thread that puts, so the
 * bound holds once a put returns, without a pool thread.
 *
 * <p>The bytes live in direct buffers, outside the heap, so that a hit is written to the socket
 * as it is: each response takes its own reference ({@link #lookUp}) and writes slices of it, with
 * no copy. An entry the cache lets go (evicted, replaced) frees its memory once the last response
 * writing it has been written.
 *
 * <p>Hits, misses and the bytes served from memory are counted for the server's metrics. Only
 * bodies count: a HEAD, a 304 or a 416 reads nothing either way.
 */
public final class HotObjects implements AutoCloseable, CacheCounters {

    private record Key(long id, String etag) {
    }

    private final int maxObjectBytes;
    private final long maxTotalBytes;
    private final Cache<Key, ByteBuf> cache;
    /** The objects a {@link FillPump} is reading into the cache now: one fill an object at a time. */
    private final Set<Key> filling = ConcurrentHashMap.newKeySet();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bytesServedFromMemory = new LongAdder();

    /**
     * With the default limits: {@link HttpSettings#DEFAULT_HOT_OBJECT_MAX} an object,
     * {@link HttpSettings#DEFAULT_HOT_OBJECTS_TOTAL} in all.
     */
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
        this.maxObjectBytes = (int) Math.min(maxObjectBytes, maxTotalBytes);
        this.maxTotalBytes = maxTotalBytes;
        this.cache = Caffeine.newBuilder()
            .maximumWeight(maxTotalBytes)
            .weigher((Key key, ByteBuf bytes) -> bytes.capacity())
            .executor(Runnable::run)
            .removalListener((Key key, ByteBuf bytes, RemovalCause cause) -> {
                if (bytes != null) {
                    bytes.release();
                }
            })
            .recordStats()
            .build();
    }

    /** Binds Caffeine's own meters of this cache (gets by hit and miss, evictions, size) to {@code registry}. */
    @Override
    public void bindTo(MeterRegistry registry) {
        CaffeineCacheMetrics.monitor(registry, cache, "hot-objects");
    }

    /** Whether an object is one this cache holds: discrete, and no larger than the limit. */
    boolean cacheable(MediaObject object) {
        return object.kind() == Kind.DISCRETE && object.size() > 0 && object.size() <= maxObjectBytes;
    }

    /**
     * The object's whole bytes if cached (a hit): a reference of the caller's own, to release once
     * written, whose readable bytes must not be changed. Null on a miss.
     */
    ByteBuf lookUp(MediaObject object) {
        ByteBuf bytes = cache.getIfPresent(new Key(object.id(), object.etag()));
        ByteBuf mine = null;
        if (bytes != null) {
            try {
                mine = bytes.retainedDuplicate();
            } catch (IllegalReferenceCountException evictedMeanwhile) {
                mine = null;
            }
        }
        if (mine == null) {
            misses.increment();
        } else {
            hits.increment();
        }
        return mine;
    }

    /**
     * Claims the filling of an object's entry: true for the first caller, false while another
     * fill of it is on its way, so that many clients missing the same large object at once read
     * it into one buffer, not one each (the others are sent their bytes as they are read). A
     * claim ends with {@link #put} or {@link #abandonFill}.
     */
    boolean claimFill(MediaObject object) {
        return filling.add(new Key(object.id(), object.etag()));
    }

    /** A claimed fill that will not complete: the next miss may claim it. */
    void abandonFill(MediaObject object) {
        filling.remove(new Key(object.id(), object.etag()));
    }

    /** A buffer to fill with an object's bytes for {@link #put}: direct, of the object's size. */
    static ByteBuf allocate(MediaObject object) {
        return Unpooled.directBuffer((int) object.size(), (int) object.size());
    }

    /**
     * Caches an object's whole bytes, just read from disk, taking over the caller's reference:
     * the cache releases it when the entry goes (or at once, if the object is not one it keeps).
     * Ends the object's fill claim, if there is one.
     */
    void put(MediaObject object, ByteBuf bytes) {
        Key key = new Key(object.id(), object.etag());
        if (cacheable(object) && bytes.readableBytes() == object.size() && bytes.capacity() == object.size()) {
            cache.put(key, bytes);
        } else {
            bytes.release();
        }
        filling.remove(key);
    }

    /** Counts body bytes sent from the cache rather than read from a disk. */
    void servedFromMemory(long bytes) {
        bytesServedFromMemory.add(bytes);
    }

    /** Bodies served from memory. */
    @Override
    public long hits() {
        return hits.sum();
    }

    /** Bodies of cacheable objects that had to be read from disk. */
    @Override
    public long misses() {
        return misses.sum();
    }

    /** Object bytes sent from memory: bytes no disk had to read. */
    @Override
    public long bytesServedFromMemory() {
        return bytesServedFromMemory.sum();
    }

    /** The bytes cached now, after any pending eviction. */
    @Override
    public long cachedBytes() {
        cache.cleanUp();
        return cache.policy().eviction().orElseThrow().weightedSize().orElseThrow();
    }

    /** The objects cached now. */
    public long cachedObjects() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    /**
     * Empties the cache, freeing its memory (the direct buffers are not the garbage collector's to
     * free): each entry once the answers writing it are written. The server closes the cache it
     * serves from when it stops.
     */
    @Override
    public void close() {
        cache.invalidateAll();
        cache.cleanUp();
    }

    public int maxObjectBytes() {
        return maxObjectBytes;
    }

    @Override
    public long maxTotalBytes() {
        return maxTotalBytes;
    }
}
