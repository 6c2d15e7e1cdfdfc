package io.rondo.scheduler.admission;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The three policies of papers/000 Section 3.3 by name and meaning. */
class AdmissionPolicyTest {

    @Test
    void parsesTheConfigurationNames() {
        assertEquals(AdmissionPolicy.ADM1, AdmissionPolicy.parse("adm1"));
        assertEquals(AdmissionPolicy.ADM2, AdmissionPolicy.parse(" ADM2 "));
        assertEquals(AdmissionPolicy.ADM3, AdmissionPolicy.parse("Adm3"));
        assertEquals(AdmissionPolicy.ADM2, AdmissionPolicy.DEFAULT);
        assertEquals("adm2", AdmissionConfig.defaults().policy().toString());
    }

    @Test
    void anUnknownNameIsRefusedWithTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AdmissionPolicy.parse("adm4"));
        assertTrue(e.getMessage().contains("'adm4'") && e.getMessage().contains("adm1")
            && e.getMessage().contains("adm3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AdmissionPolicy.parse(null));
    }

    @Test
    void eachPolicyChargesItsCurveAndFragment() {
        DiskDemand vbr = new DiskDemand(100, 150);

        assertTrue(AdmissionPolicy.ADM1.usesMinCurve());
        assertFalse(AdmissionPolicy.ADM2.usesMinCurve());
        assertFalse(AdmissionPolicy.ADM3.usesMinCurve());
        assertEquals(150, AdmissionPolicy.ADM1.chargedBytes(vbr));
        assertEquals(150, AdmissionPolicy.ADM2.chargedBytes(vbr));
        assertEquals(100, AdmissionPolicy.ADM3.chargedBytes(vbr));
        assertFalse(AdmissionPolicy.ADM1.chargesWholeRounds());
        assertTrue(AdmissionPolicy.ADM2.chargesWholeRounds());
        assertFalse(AdmissionPolicy.ADM3.chargesWholeRounds());
    }

    /** A demand whose spread is not given is taken at the largest any sizes from 0 to its peak can have. */
    @Test
    void anUnknownSpreadIsTheBhatiaDavisBound() {
        assertEquals(Math.sqrt(50.0 * 100), new DiskDemand(100, 150).sdBytesPerRound(), 1e-9);
        assertEquals(0, DiskDemand.constant(100).sdBytesPerRound());
        assertEquals(0, new DiskDemand(100, 100).sdBytesPerRound());
        assertThrows(IllegalArgumentException.class, () -> new DiskDemand(100, 150, -1));
        assertThrows(IllegalArgumentException.class, () -> new DiskDemand(100, 150, Double.NaN));
    }
}
