package io.rondo.scheduler;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import static io.rondo.scheduler.TestDisk.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The scan list of papers/001 Section 4: position order with ties in insertion order, the scan
 * direction of Figure 7, and an incremental estimate that always equals Figure 6 walked in full.
 */
class ScanListTest {

    private final TestDisk disk = new TestDisk();
    private final ScanList list = new ScanList(disk, 4);
    private long nextId = 1;

    private DiscreteRequest discrete(long position, long sizeBytes) {
        long id = nextId++;
        DiscreteRequest request = new DiscreteRequest(id, id, position, sizeBytes, id);
        request.estimatedCostNs = disk.worstCostNs(request);
        return request;
    }

    private ContinuousRequest continuous(long position, long sizeBytes) {
        ContinuousRequest request = new ContinuousRequest(nextId++, 0, position, sizeBytes);
        request.estimatedCostNs = disk.worstCostNs(request);
        return request;
    }

    private List<DiskRequest> contents() {
        List<DiskRequest> contents = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            contents.add(list.get(i));
        }
        return contents;
    }

    private List<Long> positions() {
        return contents().stream().map(DiskRequest::position).toList();
    }

    /** Figure 7 written out again, independently of the list. */
    private static ScanDirection figure7(List<DiskRequest> requests, long head) {
        long front = requests.get(0).position();
        long back = requests.get(requests.size() - 1).position();
        if (Math.abs(front - head) < Math.abs(back - head) || requests.size() == 1 && front > head) {
            return ScanDirection.FORWARD;
        }
        return ScanDirection.BACKWARD;
    }

    /** Figure 6 walked in full: seek to the first request of the sweep, then to each next one, plus each cost. */
    private long figure6(List<DiskRequest> requests, long head, ScanDirection direction) {
        if (requests.isEmpty()) {
            return 0;
        }
        List<DiskRequest> sweep = new ArrayList<>(requests);
        ScanDirection resolved = direction == ScanDirection.UNDEFINED ? figure7(requests, head) : direction;
        if (resolved == ScanDirection.BACKWARD) {
            Collections.reverse(sweep);
        }
        long total = 0;
        long at = head;
        for (DiskRequest request : sweep) {
            total += disk.seekNs(at, request.position()) + request.estimatedCostNs;
            at = request.position();
        }
        return total;
    }

    @Test
    void keepsPositionOrderAndTiesInInsertionOrder() {
        DiskRequest a = discrete(5_000, 1_000);
        DiskRequest b = discrete(1_000, 1_000);
        DiskRequest c = continuous(5_000, 1_000);
        DiskRequest d = discrete(9_000, 1_000);
        DiskRequest e = discrete(5_000, 2_000);
        DiskRequest f = discrete(1_000, 1_000);

        assertEquals(0, list.insert(a));
        assertEquals(0, list.insert(b));
        assertEquals(2, list.insert(c), "an equal position goes after those already there");
        assertEquals(3, list.insert(d));
        assertEquals(3, list.insert(e));
        assertEquals(1, list.insert(f));

        assertEquals(List.of(b, f, a, c, e, d), contents());
        assertSame(b, list.first());
        assertSame(d, list.last());
        assertEquals(1, list.continuousCount());
    }

    @Test
    void emptyListHasNoEndsAndCostsNothing() {
        assertNull(list.first());
        assertNull(list.last());
        assertEquals(0, list.estimateNs(123, ScanDirection.UNDEFINED));
        assertEquals(0, list.estimateFromAnywhereNs());
    }

    /**
     * Figure 6 by hand: head at 5000, 1000-byte requests (3 ms each) at 1000, 2000 and 8000.
     * Forward: 5 + 3 + 2 + 3 + 7 + 3 = 23 ms. Backward: 4 + 3 + 7 + 3 + 2 + 3 = 22 ms, and Figure 7
     * picks backward, the tail (3000 away) being nearer than the front (4000 away).
     */
    @Test
    void estimateFollowsFigure6ByHand() {
        list.insert(discrete(2_000, 1_000));
        list.insert(discrete(8_000, 1_000));
        list.insert(discrete(1_000, 1_000));

        assertEquals(23 * MS, list.estimateNs(5_000, ScanDirection.FORWARD));
        assertEquals(22 * MS, list.estimateNs(5_000, ScanDirection.BACKWARD));
        assertEquals(22 * MS, list.estimateNs(5_000, ScanDirection.UNDEFINED));
        assertEquals(ScanDirection.BACKWARD, list.directionFrom(5_000));
        assertEquals(1_000, list.lastInSweep(5_000, ScanDirection.UNDEFINED).position());
        assertEquals(5 * MS, list.lastInSweepCostNs(5_000, ScanDirection.BACKWARD), "seek 2000 to 1000, then 3 ms");
        assertEquals(10 * MS, list.lastInSweepCostNs(5_000, ScanDirection.FORWARD), "seek 2000 to 8000, then 3 ms");
        long fullStroke = 1 * MS + 999_999 * TestDisk.NS_PER_BYTE;
        assertEquals(fullStroke + 2 * MS + 7 * MS + 9 * MS, list.estimateFromAnywhereNs());
    }

    @Test
    void singleRequestAccountsForTheWholeEstimate() {
        list.insert(discrete(3_000, 2_000));

        assertEquals(3 * MS + 4 * MS, list.estimateNs(1_000, ScanDirection.UNDEFINED));
        assertEquals(list.estimateNs(1_000, ScanDirection.UNDEFINED),
            list.lastInSweepCostNs(1_000, ScanDirection.UNDEFINED));
    }

    /** Figure 7: sweep towards the nearer end of the list; a tie goes backward. */
    @Test
    void directionFromTakesTheNearerEnd() {
        list.insert(discrete(1_000, 1_000));
        list.insert(discrete(2_000, 1_000));
        list.insert(discrete(6_000, 1_000));
        list.insert(discrete(8_000, 1_000));

        assertEquals(ScanDirection.FORWARD, list.directionFrom(4_000), "front 3000 away, tail 4000 away");
        assertEquals(ScanDirection.BACKWARD, list.directionFrom(5_000), "front 4000 away, tail 3000 away");
        assertEquals(ScanDirection.BACKWARD, list.directionFrom(4_500), "both 3500 away");
        assertEquals(ScanDirection.FORWARD, list.directionFrom(0));
        assertEquals(ScanDirection.BACKWARD, list.directionFrom(9_000));
    }

    /** Figure 7's second clause: a single request ahead of the head is reached going forward. */
    @Test
    void directionFromASingleRequestPointsAtIt() {
        list.insert(discrete(5_000, 1_000));

        assertEquals(ScanDirection.FORWARD, list.directionFrom(1_000));
        assertEquals(ScanDirection.BACKWARD, list.directionFrom(9_000));
        assertEquals(ScanDirection.BACKWARD, list.directionFrom(5_000));
    }

    @Test
    void removesAtEitherEndAndInTheMiddle() {
        DiskRequest a = discrete(1_000, 1_000);
        DiskRequest b = discrete(2_000, 1_000);
        DiskRequest c = discrete(3_000, 1_000);
        DiskRequest d = discrete(4_000, 1_000);
        DiskRequest e = discrete(5_000, 1_000);
        for (DiskRequest r : List.of(c, a, e, b, d)) {
            list.insert(r);
        }

        assertSame(a, list.removeFirst());
        assertSame(e, list.removeLast());
        assertSame(c, list.removeAt(1));
        assertEquals(List.of(b, d), contents());
        assertEquals(figure6(contents(), 0, ScanDirection.FORWARD), list.estimateNs(0, ScanDirection.FORWARD));
        assertThrows(IndexOutOfBoundsException.class, () -> list.removeAt(2));
        assertThrows(IndexOutOfBoundsException.class, () -> list.removeAt(-1));
    }

    /** At a round start C-requests are dropped and D-requests return to the fifo, each in position order. */
    @Test
    void removeAllTakesOneClassInPositionOrderAndKeepsTheOther() {
        DiskRequest c1 = continuous(4_000, 1_000);
        DiskRequest d1 = discrete(3_000, 1_000);
        DiskRequest c2 = continuous(1_000, 1_000);
        DiskRequest d2 = discrete(6_000, 1_000);
        DiskRequest c3 = continuous(8_000, 1_000);
        for (DiskRequest r : List.of(c1, d1, c2, d2, c3)) {
            list.insert(r);
        }
        List<DiskRequest> removed = new ArrayList<>();

        list.removeAll(true, removed::add);

        assertEquals(List.of(c2, c1, c3), removed);
        assertEquals(List.of(d1, d2), contents());
        assertEquals(0, list.continuousCount());
        assertEquals(figure6(contents(), 0, ScanDirection.UNDEFINED), list.estimateNs(0, ScanDirection.UNDEFINED));
    }

    /**
     * The incremental estimate equals Figure 6 walked in full after every step of long random
     * sequences of inserts and removals, from random heads in every direction, and the list stays
     * in position order with ties in insertion order.
     */
    @Test
    void incrementalEstimateEqualsFigure6AfterRandomEdits() {
        SplittableRandom random = new SplittableRandom(20_240_601);
        for (int trial = 0; trial < 300; trial++) {
            ScanList scan = new ScanList(disk, 1 + random.nextInt(8));
            List<DiskRequest> model = new ArrayList<>();
            int positions = 1 + random.nextInt(40);
            for (int step = 0; step < 120; step++) {
                int op = random.nextInt(10);
                if (op < 5 || model.isEmpty()) {
                    long position = 1_000L * random.nextInt(positions);
                    DiskRequest request = random.nextBoolean()
                        ? continuous(position, 1 + random.nextInt(5_000))
                        : discrete(position, 1 + random.nextInt(5_000));
                    if (random.nextInt(4) == 0) {
                        request.estimatedCostNs = random.nextInt(3_000_000);
                    }
                    int index = 0;
                    while (index < model.size() && model.get(index).position() <= position) {
                        index++;
                    }
                    model.add(index, request);
                    assertEquals(index, scan.insert(request), "insertion index");
                } else if (op < 7) {
                    int index = random.nextInt(model.size());
                    assertSame(model.remove(index), scan.removeAt(index));
                } else if (op == 7) {
                    assertSame(model.remove(0), scan.removeFirst());
                } else if (op == 8) {
                    assertSame(model.remove(model.size() - 1), scan.removeLast());
                } else {
                    boolean continuousClass = random.nextBoolean();
                    List<DiskRequest> expectedRemoved = model.stream()
                        .filter(r -> r.isContinuous() == continuousClass).toList();
                    model.removeIf(r -> r.isContinuous() == continuousClass);
                    List<DiskRequest> removed = new ArrayList<>();
                    scan.removeAll(continuousClass, removed::add);
                    assertEquals(expectedRemoved, removed);
                }
                assertEquals(model.size(), scan.size());
                for (int i = 0; i < model.size(); i++) {
                    assertSame(model.get(i), scan.get(i), "trial " + trial + " step " + step + " index " + i);
                }
                assertEquals(model.stream().filter(DiskRequest::isContinuous).count(), scan.continuousCount());
                long head = 1_000L * random.nextInt(positions + 2) + random.nextInt(3) * 500L;
                for (ScanDirection direction : ScanDirection.values()) {
                    assertEquals(figure6(model, head, direction), scan.estimateNs(head, direction),
                        "trial " + trial + " step " + step + " head " + head + " " + direction);
                }
                if (!model.isEmpty()) {
                    assertEquals(figure7(model, head), scan.directionFrom(head));
                    for (ScanDirection direction : ScanDirection.values()) {
                        ScanDirection resolved =
                            direction == ScanDirection.UNDEFINED ? figure7(model, head) : direction;
                        boolean forward = resolved == ScanDirection.FORWARD;
                        List<DiskRequest> allButLast = forward
                            ? model.subList(0, model.size() - 1) : model.subList(1, model.size());
                        assertSame(forward ? model.get(model.size() - 1) : model.get(0),
                            scan.lastInSweep(head, direction));
                        assertEquals(figure6(model, head, resolved) - figure6(allButLast, head, resolved),
                            scan.lastInSweepCostNs(head, direction), "the last request's share, " + direction);
                    }
                    long neighbours = figure6(model, model.get(0).position(), ScanDirection.FORWARD);
                    assertEquals(disk.maxSeekNs() + neighbours, scan.estimateFromAnywhereNs());
                }
            }
        }
    }

    /** The array grows at whichever end runs out of room, keeping order and estimate. */
    @Test
    void growsWhenInsertsPileUpAtEitherEnd() {
        List<DiskRequest> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            DiskRequest low = discrete(100_000 - 1_000L * i, 500);
            DiskRequest high = discrete(200_000 + 1_000L * i, 500);
            list.insert(low);
            list.insert(high);
            expected.add(0, low);
            expected.add(high);
        }

        assertEquals(expected, contents());
        assertEquals(figure6(expected, 150_000, ScanDirection.UNDEFINED),
            list.estimateNs(150_000, ScanDirection.UNDEFINED));
        assertEquals(positions().stream().sorted().toList(), positions());
    }
}
