package io.rondo.scheduler.admission;

import java.util.Arrays;
import java.util.function.ToLongFunction;

/**
 * What the admitted streams ask of one disk in each of {@link Cadence#MAX_PERIOD} round slots:
 * round {@code r} carries the streams whose cadence reads in it, slot {@code r mod MAX_PERIOD}.
 * A stream reading every round is in every slot; one reading every other round in half of them.
 * Immutable.
 */
final class SlotLoads {

    static final SlotLoads NONE = new SlotLoads(filled());

    private final DiskLoad[] slots;

    private SlotLoads(DiskLoad[] slots) {
        this.slots = slots;
    }

    /** With {@code load} added to every slot {@code cadence} reads in. */
    SlotLoads plus(DiskLoad load, Cadence cadence) {
        DiskLoad[] next = slots.clone();
        for (int slot = cadence.slot(); slot < next.length; slot += cadence.period()) {
            next[slot] = next[slot].plus(load);
        }
        return new SlotLoads(next);
    }

    /** With {@code load} taken out of every slot {@code cadence} reads in. */
    SlotLoads minus(DiskLoad load, Cadence cadence) {
        DiskLoad[] next = slots.clone();
        for (int slot = cadence.slot(); slot < next.length; slot += cadence.period()) {
            next[slot] = next[slot].minus(load);
        }
        return new SlotLoads(next);
    }

    /** The load of slot {@code slot}. */
    DiskLoad slot(int slot) {
        return slots[slot];
    }

    /** The largest of {@code roundNs} over the slots {@code cadence} reads in, with {@code load} added to each. */
    long worstWith(DiskLoad load, Cadence cadence, ToLongFunction<DiskLoad> roundNs) {
        long worst = 0;
        for (int slot = cadence.slot(); slot < slots.length; slot += cadence.period()) {
            worst = Math.max(worst, roundNs.applyAsLong(slots[slot].plus(load)));
        }
        return worst;
    }

    /** The most any slot's round takes. */
    long worst(ToLongFunction<DiskLoad> roundNs) {
        long worst = 0;
        for (DiskLoad slot : slots) {
            worst = Math.max(worst, roundNs.applyAsLong(slot));
        }
        return worst;
    }

    /** The most streams any slot's round reads. */
    int mostStreams() {
        int most = 0;
        for (DiskLoad slot : slots) {
            most = Math.max(most, slot.streams());
        }
        return most;
    }

    private static DiskLoad[] filled() {
        DiskLoad[] slots = new DiskLoad[Cadence.MAX_PERIOD];
        Arrays.fill(slots, DiskLoad.NONE);
        return slots;
    }
}
