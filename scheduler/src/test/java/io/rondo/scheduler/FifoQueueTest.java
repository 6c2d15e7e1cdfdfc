package io.rondo.scheduler;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fifo queue of papers/001 Section 4: arrival order, removal from anywhere, and putting back in place. */
class FifoQueueTest {

    private final FifoQueue fifo = new FifoQueue();

    private static DiscreteRequest request(long id, long arrivalNs) {
        return new DiscreteRequest(id, id, 1_000 * id, 1_000, arrivalNs);
    }

    private List<Long> ids() {
        List<Long> ids = new ArrayList<>();
        for (DiscreteRequest r = fifo.first(); r != null; r = fifo.next(r)) {
            ids.add(r.id());
        }
        return ids;
    }

    @Test
    void keepsArrivalOrder() {
        for (long id = 1; id <= 4; id++) {
            fifo.addLast(request(id, 10 * id));
        }

        assertEquals(List.of(1L, 2L, 3L, 4L), ids());
        assertEquals(4, fifo.size());
        assertEquals(1, fifo.first().id());
    }

    @Test
    void emptyQueueHasNothingFirst() {
        assertTrue(fifo.isEmpty());
        assertNull(fifo.first());
        assertEquals(0, fifo.size());
    }

    /** The fill takes a request lying ahead of the head from the middle of the queue (Figure 5). */
    @Test
    void removesFromTheMiddleTheFrontAndTheBack() {
        List<DiscreteRequest> requests = new ArrayList<>();
        for (long id = 1; id <= 5; id++) {
            requests.add(request(id, 10 * id));
            fifo.addLast(requests.get(requests.size() - 1));
        }

        fifo.remove(requests.get(2));
        assertEquals(List.of(1L, 2L, 4L, 5L), ids());
        fifo.remove(requests.get(0));
        assertEquals(List.of(2L, 4L, 5L), ids());
        fifo.remove(requests.get(4));
        assertEquals(List.of(2L, 4L), ids());
        assertEquals(2, fifo.size());

        fifo.addLast(request(6, 60));
        assertEquals(List.of(2L, 4L, 6L), ids(), "the tail link survives removing the last request");
    }

    /** D-requests returned from the scan list at a round start go back to their place in arrival order. */
    @Test
    void putBackRestoresArrivalOrder() {
        List<DiscreteRequest> requests = new ArrayList<>();
        for (long id = 1; id <= 5; id++) {
            requests.add(request(id, 10 * id));
            fifo.addLast(requests.get(requests.size() - 1));
        }
        fifo.remove(requests.get(0));
        fifo.remove(requests.get(2));
        fifo.remove(requests.get(4));

        fifo.putBack(requests.get(2));
        fifo.putBack(requests.get(4));
        fifo.putBack(requests.get(0));

        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), ids());
        assertEquals(5, fifo.size());
    }

    @Test
    void putBackOrdersEqualArrivalTimesBySequence() {
        DiscreteRequest first = new DiscreteRequest(7, 1, 0, 1_000, 100);
        DiscreteRequest second = new DiscreteRequest(8, 2, 0, 1_000, 100);
        DiscreteRequest third = new DiscreteRequest(9, 3, 0, 1_000, 100);
        fifo.addLast(second);
        fifo.putBack(third);
        fifo.putBack(first);

        assertEquals(List.of(7L, 8L, 9L), ids());
    }

    @Test
    void refusesAnArrivalOlderThanTheLastQueued() {
        fifo.addLast(request(2, 20));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> fifo.addLast(request(1, 10)));
        assertTrue(e.getMessage().contains("arrived before"), e.getMessage());
        assertEquals(List.of(2L), ids());
    }

    @Test
    void refusesToQueueARequestTwiceOrRemoveOneNotQueued() {
        DiscreteRequest queued = request(1, 10);
        fifo.addLast(queued);

        assertThrows(IllegalStateException.class, () -> fifo.addLast(queued));
        assertThrows(IllegalStateException.class, () -> fifo.putBack(queued));
        assertThrows(IllegalStateException.class, () -> fifo.remove(request(2, 20)));
        assertEquals(1, fifo.size());
    }
}
