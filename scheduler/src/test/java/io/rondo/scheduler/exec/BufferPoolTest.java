package io.rondo.scheduler.exec;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The buffer manager: aligned buffers under a ceiling that may move, double buffers per stream,
 * every buffer back once.
 */
class BufferPoolTest {

    private static final int KIB = 1024;

    /**
     * A stream whose cadence reads two fragments at once gets buffers twice as large, if the
     * ceiling holds them; back to one a read, its memory is freed as its larger buffers come back.
     */
    @Test
    void aStreamsBudgetGrowsWithinTheCeilingAndShrinksAsItsLargerBuffersReturn() {
        BufferPool pool = new BufferPool(512 * KIB);
        assertTrue(pool.reserveStream(1, StreamBudget.doubleBuffer(64 * KIB)));
        assertEquals(128 * KIB, pool.reservedBytes());
        assertFalse(pool.rebudget(1, StreamBudget.doubleBuffer(512 * KIB)), "two 512 KiB buffers pass the ceiling");
        assertEquals(128 * KIB, pool.reservedBytes(), "a refused budget changes nothing");
        assertTrue(pool.rebudget(1, StreamBudget.doubleBuffer(128 * KIB)));
        assertEquals(256 * KIB, pool.reservedBytes());

        PooledBuffer large = pool.acquireForStream(1, 128 * KIB);
        assertTrue(pool.rebudget(1, StreamBudget.doubleBuffer(64 * KIB)));
        assertEquals(128 * KIB + 64 * KIB, pool.reservedBytes(), "the 128 KiB buffer lent counts until it is back");
        assertThrows(IllegalStateException.class, () -> pool.acquireForStream(1, 128 * KIB),
            "reads take the new size from now on");
        large.release();
        assertEquals(128 * KIB, pool.reservedBytes());
        pool.releaseStream(1);
        assertEquals(0, pool.reservedBytes());
    }

    @Test
    void buffersAreAlignedDirectAndRoundedUpToAPowerOfTwo() {
        BufferPool pool = new BufferPool(1 << 20);

        PooledBuffer buffer = pool.acquire(5000);

        assertTrue(buffer.buffer().isDirect());
        assertEquals(8 * KIB, buffer.capacity());
        assertEquals(0, buffer.buffer().alignmentOffset(0, 4096), "the buffer starts on a 4096-byte boundary");
        assertEquals(4 * KIB, BufferPool.classCapacity(1), "nothing smaller than one aligned block");
    }

    @Test
    void discreteReadsAreRefusedPastTheCeilingAndServedAgainOnceBuffersReturn() {
        BufferPool pool = new BufferPool(64 * KIB);
        PooledBuffer first = pool.acquire(32 * KIB);
        PooledBuffer second = pool.acquire(32 * KIB);

        assertNull(pool.acquire(4 * KIB), "the ceiling is reached");
        first.release();
        assertNotNull(pool.acquire(4 * KIB), "a returned buffer makes room");
        second.release();
        assertEquals(4 * KIB, pool.discreteInUseBytes());
    }

    @Test
    void aReturnedBufferIsReusedRatherThanAllocatedAgain() {
        BufferPool pool = new BufferPool(1 << 20);
        PooledBuffer first = pool.acquire(16 * KIB);
        java.nio.ByteBuffer memory = first.buffer();
        first.buffer().position(100);
        first.release();

        PooledBuffer again = pool.acquire(16 * KIB);

        assertSame(memory, again.buffer());
        assertEquals(0, again.buffer().position(), "handed out cleared");
    }

    @Test
    void releasingTwiceIsRefusedAndCountsStayRight() {
        BufferPool pool = new BufferPool(1 << 20);
        PooledBuffer buffer = pool.acquire(4 * KIB);
        buffer.release();

        IllegalStateException twice = assertThrows(IllegalStateException.class, buffer::release);

        assertTrue(twice.getMessage().contains("released twice"), twice.getMessage());
        assertEquals(0, pool.outstanding());
        assertEquals(0, pool.discreteInUseBytes());
    }

    /** papers/004 Section 4: a stream holds at most its two buffers, paid for by its reservation. */
    @Test
    void aStreamReservesTwoBuffersAndNeverHoldsAThird() {
        BufferPool pool = new BufferPool(256 * KIB);

        assertTrue(pool.reserveStream(7, 60 * KIB));
        assertEquals(128 * KIB, pool.reservedBytes(), "two 64 KiB buffers");
        PooledBuffer one = pool.acquireForStream(7, 60 * KIB);
        PooledBuffer two = pool.acquireForStream(7, 10 * KIB);
        IllegalStateException third = assertThrows(IllegalStateException.class, () -> pool.acquireForStream(7, 1));
        assertTrue(third.getMessage().contains("both of its buffers"), third.getMessage());
        one.release();
        PooledBuffer again = pool.acquireForStream(7, 1);
        assertNotNull(again, "a returned buffer frees one of the two");
        again.release();
        two.release();
        IllegalStateException tooBig = assertThrows(IllegalStateException.class,
            () -> pool.acquireForStream(7, 100 * KIB));
        assertTrue(tooBig.getMessage().contains("exceeds"), tooBig.getMessage());
    }

    @Test
    void reservationsComeOffWhatDiscreteReadsMayUseAndAreRefusedPastTheCeiling() {
        BufferPool pool = new BufferPool(256 * KIB);
        assertTrue(pool.reserveStream(1, 64 * KIB));

        assertNull(pool.acquire(256 * KIB), "the stream's 128 KiB are spoken for");
        assertNotNull(pool.acquire(128 * KIB));
        assertTrue(!pool.reserveStream(2, 4 * KIB), "no room left for another double buffer");
    }

    @Test
    void aClosedStreamsReservationEndsWhenItsLastBufferReturns() {
        BufferPool pool = new BufferPool(256 * KIB);
        pool.reserveStream(3, 32 * KIB);
        PooledBuffer held = pool.acquireForStream(3, 32 * KIB);

        pool.releaseStream(3);
        assertEquals(64 * KIB, pool.reservedBytes(), "still accounted while a buffer is out");
        held.release();

        assertEquals(0, pool.reservedBytes());
        assertEquals(0, pool.outstanding());
        assertThrows(IllegalStateException.class, () -> pool.acquireForStream(3, 1));
    }

    /**
     * The ceiling drops from 256 KiB to 64 KiB while stream 1 holds a 128 KiB reservation and a
     * discrete read holds 64 KiB: the stream still gets both its buffers; discrete reads and new
     * streams wait until what is in use falls under the new ceiling.
     */
    @Test
    void loweringTheCeilingNeverFailsAnAdmittedStreamsRead() {
        BufferPool pool = new BufferPool(256 * KIB);
        assertTrue(pool.reserveStream(1, 64 * KIB));
        PooledBuffer discrete = pool.acquire(64 * KIB);

        pool.ceilingBytes(64 * KIB);

        assertEquals(64 * KIB, pool.ceilingBytes());
        PooledBuffer one = pool.acquireForStream(1, 64 * KIB);
        PooledBuffer two = pool.acquireForStream(1, 64 * KIB);
        assertEquals(128 * KIB, pool.reservedBytes(), "the reservation is whole");
        assertNull(pool.acquire(4 * KIB), "192 KiB in use, past the 64 KiB ceiling");
        assertFalse(pool.reserveStream(2, 4 * KIB));
        one.release();
        two.release();
        pool.releaseStream(1);
        discrete.release();
        assertNotNull(pool.acquire(32 * KIB), "nothing else in use: room under the new ceiling");
        assertNull(pool.acquire(64 * KIB), "32 + 64 KiB would pass it");

        pool.ceilingBytes(1 << 20);
        assertNotNull(pool.acquire(64 * KIB), "raised, there is room at once");
    }

    @Test
    void loweringTheCeilingLetsIdleBuffersGo() {
        BufferPool pool = new BufferPool(1 << 20);
        PooledBuffer large = pool.acquire(256 * KIB);
        PooledBuffer small = pool.acquire(16 * KIB);
        large.release();
        small.release();
        assertEquals(272 * KIB, pool.cachedBytes(), "kept for reuse");

        pool.ceilingBytes(64 * KIB);

        assertEquals(16 * KIB, pool.cachedBytes(), "the large one is let go first; the small one still fits");
        assertThrows(IllegalArgumentException.class, () -> pool.ceilingBytes(100));
        assertEquals(64 * KIB, pool.ceilingBytes());
    }

    /**
     * papers/004 Section 4, ClBufRate: streams with no buffer of their own draw on one shared
     * account, sized apart from them; what it lends comes off what discrete reads may use, and
     * goes back to it.
     */
    @Test
    void streamsWithNoBufferOfTheirOwnDrawOnTheSharedAccount() {
        BufferPool pool = new BufferPool(1 << 20);
        assertTrue(pool.shareBytes("clbufrate", 128 * KIB));
        for (long id = 1; id <= 10; id++) {
            assertTrue(pool.reserveStream(id, StreamBudget.sharing(0, 64 * KIB, "clbufrate")));
        }
        assertEquals(0, pool.reservedBytes(), "ten streams, nothing of their own");
        assertEquals(128 * KIB, pool.inUseBytes(), "the shared account alone");

        PooledBuffer one = pool.acquireForStream(1, 60 * KIB);
        PooledBuffer two = pool.acquireForStream(2, 60 * KIB);
        assertEquals(128 * KIB, pool.sharedHeldBytes("clbufrate"));
        assertNull(pool.acquire((1 << 20) - 128 * KIB + 1), "the account is spoken for");
        one.release();
        assertTrue(one.released());
        assertEquals(64 * KIB, pool.sharedHeldBytes("clbufrate"));
        PooledBuffer three = pool.acquireForStream(3, 60 * KIB);
        assertEquals(0, pool.sharedOverdrafts(), "within the account");
        two.release();
        three.release();
        assertEquals(0, pool.outstanding());
    }

    /** A stream that buffers (ClBuf) takes its own buffer first, its second from the account. */
    @Test
    void aStreamTakesItsOwnBufferFirstAndItsSecondFromTheAccount() {
        BufferPool pool = new BufferPool(1 << 20);
        pool.shareBytes("clbuf", 64 * KIB);
        assertTrue(pool.reserveStream(5, StreamBudget.sharing(1, 64 * KIB, "clbuf")));
        assertEquals(64 * KIB, pool.reservedBytes());

        PooledBuffer own = pool.acquireForStream(5, 60 * KIB);
        assertEquals(0, pool.sharedHeldBytes("clbuf"));
        PooledBuffer second = pool.acquireForStream(5, 60 * KIB);
        assertEquals(64 * KIB, pool.sharedHeldBytes("clbuf"));
        IllegalStateException third = assertThrows(IllegalStateException.class, () -> pool.acquireForStream(5, 1));
        assertTrue(third.getMessage().contains("the 2 buffers its budget allows"), third.getMessage());

        pool.releaseStream(5);
        own.release();
        second.release();
        assertEquals(0, pool.reservedBytes());
        assertEquals(0, pool.sharedHeldBytes("clbuf"));
    }

    /**
     * A full shared account never fails an admitted stream's read while the ceiling has room: it
     * lends past its size and counts the overdraft; an account cannot grow past the ceiling, and
     * shrinking it keeps what is held.
     */
    @Test
    void aFullSharedAccountOverdrawsUnderTheCeilingAndCountsIt() {
        BufferPool pool = new BufferPool(256 * KIB);
        pool.shareBytes("clbufrate", 64 * KIB);
        pool.reserveStream(1, StreamBudget.sharing(0, 64 * KIB, "clbufrate"));
        pool.reserveStream(2, StreamBudget.sharing(0, 64 * KIB, "clbufrate"));
        PooledBuffer one = pool.acquireForStream(1, 64 * KIB);
        PooledBuffer two = pool.acquireForStream(2, 64 * KIB);

        assertEquals(1, pool.sharedOverdrafts());
        assertEquals(128 * KIB, pool.inUseBytes());
        assertFalse(pool.shareBytes("clbufrate", 512 * KIB), "past the ceiling");
        assertTrue(pool.shareBytes("clbufrate", 0));
        assertEquals(128 * KIB, pool.sharedBytes(), "what is held stays accounted");
        one.release();
        two.release();
        assertEquals(0, pool.sharedBytes());
        PooledBuffer discrete = pool.acquire(256 * KIB);
        assertNotNull(discrete, "all free again");
        assertThrows(IllegalStateException.class, () -> pool.acquireForStream(1, 64 * KIB),
            "nothing under the ceiling: the read is refused, never lent past it");
        discrete.release();
    }

    /** Executors acquire and senders release at once: the counts come back to nothing. */
    @Test
    void sharedAccountsStayRightUnderConcurrentReadsAndReleases() throws Exception {
        BufferPool pool = new BufferPool(64L << 20);
        pool.shareBytes("clbufrate", 16L << 20);
        int threads = 4;
        int streamsPerThread = 16;
        ExecutorService executors = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long first = (long) t * streamsPerThread;
            done.add(executors.submit(() -> {
                for (long id = first; id < first + streamsPerThread; id++) {
                    assertTrue(pool.reserveStream(id, StreamBudget.sharing(id % 2 == 0 ? 0 : 1, 64 * KIB,
                        "clbufrate")));
                    for (int round = 0; round < 200; round++) {
                        PooledBuffer a = pool.acquireForStream(id, 60 * KIB);
                        PooledBuffer b = pool.acquireForStream(id, 30 * KIB);
                        a.release();
                        b.release();
                    }
                    pool.releaseStream(id);
                }
            }));
        }
        for (Future<?> future : done) {
            future.get();
        }
        executors.shutdown();
        assertEquals(0, pool.outstanding());
        assertEquals(0, pool.reservedBytes());
        assertEquals(0, pool.sharedHeldBytes("clbufrate"));
        assertEquals(16L << 20, pool.inUseBytes(), "the account alone");
        assertEquals(0, pool.sharedOverdrafts());
    }
}
