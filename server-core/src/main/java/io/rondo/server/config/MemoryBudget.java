package io.rondo.server.config;

import java.util.ArrayList;
import java.util.List;

/**
 * How Rondo's memory is shared out, so that no client can push it past what the JVM was given.
 * The launcher ({@code ./rondo}) sizes the JVM for the machine: an eighth of its memory as heap, a
 * quarter as direct memory. Inside the direct memory the read buffers ({@code buffers.ceiling})
 * and the hot-object cache ({@code http.hotObjectsTotal}) are budgeted together: the two may take
 * at most {@link #SHARED_SHARE} of it, and the rest is left for the sockets' write buffers.
 * {@code auto} gives the buffers half and the cache an eighth; a ceiling set higher shrinks the
 * cache's {@code auto}, never below {@link #MIN_HOT_OBJECTS}.
 *
 * @param heapBytes       the JVM's maximum heap
 * @param directBytes     the JVM's direct memory limit
 * @param ceilingBytes    {@code buffers.ceiling} in bytes
 * @param hotObjectsBytes {@code http.hotObjectsTotal} in bytes
 * @param sizedForBytes   the memory the launcher sized the JVM for, or 0 when it was not the launcher
 * @param sizedBy         what that figure is ({@code this machine}, {@code RONDO_MEMORY}), or null
 */
public record MemoryBudget(long heapBytes, long directBytes, long ceilingBytes, long hotObjectsBytes,
                           long sizedForBytes, String sizedBy) {

    /** The share of direct memory that read buffers and hot objects may take together. */
    public static final double SHARED_SHARE = 0.75;
    /** {@code http.hotObjectsTotal: auto}'s share of direct memory. */
    public static final double HOT_OBJECTS_SHARE = 1.0 / 8;
    /** The smallest hot-object cache {@code auto} gives. */
    public static final long MIN_HOT_OBJECTS = 16L << 20;

    /** The system properties the launcher sets, saying what it sized the JVM for. */
    static final String SIZED_FOR = "rondo.memory.sizedFor";
    static final String SIZED_BY = "rondo.memory.source";

    /**
     * {@code http.hotObjectsTotal: auto} beside a buffer ceiling: an eighth of direct memory, less
     * where the ceiling leaves less of the shared share, and at least {@link #MIN_HOT_OBJECTS}.
     */
    public static long autoHotObjects(long directBytes, long ceilingBytes) {
        long share = (long) (directBytes * HOT_OBJECTS_SHARE);
        long left = (long) (directBytes * SHARED_SHARE) - ceilingBytes;
        return Math.max(MIN_HOT_OBJECTS, Math.min(share, left));
    }

    /** This JVM's budget for the given ceiling and cache. */
    public static MemoryBudget of(long ceilingBytes, long hotObjectsBytes) {
        long sizedFor = 0;
        try {
            sizedFor = Long.parseLong(System.getProperty(SIZED_FOR, "0"));
        } catch (NumberFormatException e) {
            sizedFor = 0;
        }
        return new MemoryBudget(Runtime.getRuntime().maxMemory(), DirectMemory.maxBytes(), ceilingBytes,
            hotObjectsBytes, sizedFor, sizedFor > 0 ? System.getProperty(SIZED_BY, "this machine") : null);
    }

    /** The buffers and the cache together. */
    public long sharedBytes() {
        return ceilingBytes + hotObjectsBytes;
    }

    /** What is wrong with the budget, for people; empty when the buffers and the cache fit. */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        if (sharedBytes() > directBytes) {
            warnings.add("the read buffers (buffers.ceiling, " + ByteSizes.format(ceilingBytes) + ") and the "
                + "hot-object cache (http.hotObjectsTotal, " + ByteSizes.format(hotObjectsBytes) + ") together pass "
                + "the JVM's "
                + ByteSizes.format(directBytes) + " of direct memory: lower them, or raise it with RONDO_MEMORY or "
                + "RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize=SIZE, or reads and answers may fail for memory before "
                + "admission refuses a stream");
        }
        return warnings;
    }

    /**
     * One line for people: {@code memory: heap 3 GiB, direct 6 GiB (sized for this machine's 24 GiB):
     * read buffers 3 GiB + hot objects 768 MiB = 62% of direct}.
     */
    public String describe() {
        String sized = sizedBy == null ? "set by the JVM's flags"
            : "sized by ./rondo for " + ("RONDO_MEMORY".equals(sizedBy) ? "RONDO_MEMORY=" : sizedBy + "'s ")
                + ByteSizes.format(sizedForBytes);
        long percent = directBytes == 0 ? 0 : Math.round(100.0 * sharedBytes() / directBytes);
        return "memory: heap " + ByteSizes.format(heapBytes) + ", direct " + ByteSizes.format(directBytes) + " ("
            + sized + "): read buffers " + ByteSizes.format(ceilingBytes) + " + hot objects "
            + ByteSizes.format(hotObjectsBytes) + " = " + percent + "% of direct";
    }
}
