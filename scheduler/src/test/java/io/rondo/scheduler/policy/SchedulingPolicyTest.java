package io.rondo.scheduler.policy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The policy framework of papers/001 Section 2.4 as a user writes it: the four policies of
 * Section 3 by name, any other point as key=value, and every combination the framework rules out
 * refused with the reason.
 */
class SchedulingPolicyTest {

    /** Section 3 (a) to (d), in the paper's order, each parsed back from its own name. */
    @Test
    void presetsParseByNameAndDescribeThemselves() {
        assertEquals(List.of("disjoint-incremental-fcfs", "disjoint-incremental-scan", "mixed-incremental-scan",
            "mixed-gated-scan"), SchedulingPolicy.PRESETS.stream().map(SchedulingPolicy::name).toList());
        for (SchedulingPolicy preset : SchedulingPolicy.PRESETS) {
            assertSame(preset, SchedulingPolicy.parse(preset.name()));
            assertSame(preset, SchedulingPolicy.parse("  " + preset.name().toUpperCase() + " "));
            assertEquals(preset.name(), preset.toString());
        }
        assertEquals("period=disjoint-c-first,subrounds=1,limit=dynamic,order=incremental-fcfs",
            SchedulingPolicy.DISJOINT_INCREMENTAL_FCFS.describe());
        assertEquals("period=disjoint-c-first,subrounds=1,limit=dynamic,order=incremental-scan",
            SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN.describe());
        assertEquals("period=mixed,subrounds=1,limit=dynamic,order=incremental-scan",
            SchedulingPolicy.MIXED_INCREMENTAL_SCAN.describe());
        assertEquals("period=mixed,subrounds=1,limit=dynamic,order=gated-incremental-scan",
            SchedulingPolicy.MIXED_GATED_SCAN.describe());
        assertSame(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, SchedulingPolicy.DEFAULT);
    }

    /** A description is itself a spec that parses back to the same point of the framework. */
    @Test
    void descriptionsParseBackToTheSamePolicy() {
        for (SchedulingPolicy preset : SchedulingPolicy.PRESETS) {
            SchedulingPolicy parsed = SchedulingPolicy.parse(preset.describe());
            assertEquals(preset.describe(), parsed.describe());
            assertEquals(preset.servicePeriod(), parsed.servicePeriod());
            assertEquals(preset.ordering(), parsed.ordering());
        }
    }

    @Test
    void parsesEveryKey() {
        SchedulingPolicy policy = SchedulingPolicy.parse("period=disjoint-c-first,subrounds=2,limit=static-number:5,"
            + "order=scan");

        assertEquals(ServicePeriod.DISJOINT_C_FIRST, policy.servicePeriod());
        assertEquals(2, policy.subrounds());
        assertEquals(Limitation.STATIC_NUMBER, policy.limitation());
        assertEquals(5, policy.discreteLimit());
        assertEquals(QueueOrdering.SCAN, policy.ordering());
        assertEquals("period=disjoint-c-first,subrounds=2,limit=static-number:5,order=scan", policy.describe());

        SchedulingPolicy timed = SchedulingPolicy.parse(" Period = disjoint-d-first , limit = static-time:0.4 ,"
            + " order = incremental-fcfs ");
        assertEquals(ServicePeriod.DISJOINT_D_FIRST, timed.servicePeriod());
        assertEquals(Limitation.STATIC_TIME, timed.limitation());
        assertEquals(0.4, timed.discretePeriodShare());
        assertEquals(QueueOrdering.INCREMENTAL_FCFS, timed.ordering());
    }

    /** Omitted keys take the default policy's values: mixed, 1 subround, dynamic, incremental SCAN. */
    @Test
    void omittedKeysTakeTheDefaults() {
        SchedulingPolicy policy = SchedulingPolicy.parse("subrounds=3");

        assertEquals("period=mixed,subrounds=3,limit=dynamic,order=incremental-scan", policy.describe());
        assertEquals("subrounds=3", policy.name());
    }

    /** Section 2.4 (2): 0 subrounds denotes a mixed round, read as one round without subrounds. */
    @Test
    void zeroSubroundsOfAMixedPolicyMeansOne() {
        assertEquals(1, SchedulingPolicy.parse("period=mixed,subrounds=0").subrounds());
    }

    @Test
    void theDimensionsKnowTheirProperties() {
        assertTrue(QueueOrdering.GATED_INCREMENTAL_SCAN.isScan());
        assertTrue(QueueOrdering.GATED_INCREMENTAL_SCAN.isIncremental());
        assertFalse(QueueOrdering.FCFS.isScan());
        assertFalse(QueueOrdering.SCAN.isIncremental());
        assertTrue(QueueOrdering.INCREMENTAL_FCFS.isIncremental());
        assertTrue(ServicePeriod.DISJOINT_D_FIRST.isDisjoint());
        assertFalse(ServicePeriod.MIXED.isDisjoint());
    }

    /** Every combination Section 2 rules out, and every spec written wrongly, is refused with a reason. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "period=mixed,order=fcfs | fcfs ordering of D-requests needs a D-period of their own",
        "period=mixed,order=incremental-fcfs | use a disjoint service period or a SCAN ordering",
        "period=mixed,limit=static-time:0.4 | a mixed round has no separate D-period",
        "period=disjoint-c-first,subrounds=0 | 0 subrounds denotes a mixed round",
        "period=disjoint-d-first,subrounds=0 | disjoint-d-first policy needs at least one C-/D-period pair",
        "subrounds=-2 | the number of subrounds must be at least 1, was -2",
        "subrounds=two | subrounds must be a whole number, was 'two'",
        "limit=static-number | limit=static-number needs a value: static-number:5",
        "limit=static-number:0 | a static number limit needs at least 1 D-request per (sub)round, was 0",
        "limit=static-number:many | limit must be a whole number, was 'many'",
        "period=disjoint-c-first,limit=static-time | limit=static-time needs a value: static-time:0.4",
        "period=disjoint-c-first,limit=static-time:1.5 | a D-period share strictly between 0 and 1",
        "period=disjoint-c-first,limit=static-time:0 | a D-period share strictly between 0 and 1",
        "limit=dynamic:3 | limit=dynamic takes no value",
        "limit=unlimited | unknown limit 'unlimited'; choose one of static-number, static-time, dynamic",
        "period=sideways | unknown period 'sideways'; choose one of mixed, disjoint-c-first, disjoint-d-first",
        "order=lifo | unknown order 'lifo'; choose one of fcfs, incremental-fcfs, scan, incremental-scan, "
            + "gated-incremental-scan",
        "speed=fast | unknown policy key 'speed'; the keys are period, subrounds, limit, order",
        "period=mixed,period=disjoint-c-first | 'period' is given twice",
        "period=mixed,scan | 'scan' is not key=value",
        "period= | 'period=' is not key=value",
        "fastest | unknown policy 'fastest'; the presets are disjoint-incremental-fcfs, disjoint-incremental-scan, "
            + "mixed-incremental-scan, mixed-gated-scan",
    })
    void refusesWithTheReason(String spec, String reason) {
        PolicyException e = assertThrows(PolicyException.class, () -> SchedulingPolicy.parse(spec));

        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @Test
    void aPolicyExceptionIsAnIllegalArgument() {
        assertThrows(IllegalArgumentException.class, () -> SchedulingPolicy.parse(""));
        assertThrows(IllegalArgumentException.class, () -> SchedulingPolicy.parse(null));
    }

    /** The record refuses the same combinations when built directly, and settings that belong to another limit. */
    @Test
    void theConstructorRefusesSettingsThatBelongToAnotherLimitation() {
        PolicyException count = assertThrows(PolicyException.class, () -> new SchedulingPolicy("x",
            ServicePeriod.MIXED, 1, Limitation.DYNAMIC, 3, 0, QueueOrdering.INCREMENTAL_SCAN));
        assertTrue(count.getMessage().contains("applies only to the static-number limitation"), count.getMessage());

        PolicyException share = assertThrows(PolicyException.class, () -> new SchedulingPolicy("x",
            ServicePeriod.DISJOINT_C_FIRST, 1, Limitation.DYNAMIC, 0, 0.5, QueueOrdering.INCREMENTAL_SCAN));
        assertTrue(share.getMessage().contains("applies only to the static-time limitation"), share.getMessage());

        PolicyException name = assertThrows(PolicyException.class, () -> new SchedulingPolicy(" ",
            ServicePeriod.MIXED, 1, Limitation.DYNAMIC, 0, 0, QueueOrdering.INCREMENTAL_SCAN));
        assertTrue(name.getMessage().contains("needs a name"), name.getMessage());

        assertThrows(PolicyException.class, () -> new SchedulingPolicy("x", null, 1, Limitation.DYNAMIC, 0, 0,
            QueueOrdering.INCREMENTAL_SCAN));
    }
}
