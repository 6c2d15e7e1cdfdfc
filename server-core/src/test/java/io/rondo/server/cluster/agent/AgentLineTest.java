package io.rondo.server.cluster.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent line as HAProxy's agent check reads it, and as a node reads its peers'. */
class AgentLineTest {

    @Test
    void aLineRoundTripsThroughItsTextWithEveryKindOfWord() {
        AgentLine line = new AgentLine(AgentLine.Health.UP, AgentLine.Admin.DRAIN, 0, 12,
            "full: no room for another stream");

        assertEquals("up drain 0% maxconn:12 #full: no room for another stream", line.format());
        assertEquals(line, AgentLine.parse(line.format() + "\n"));
    }

    @Test
    void haproxysWordsAreReadInAnyOrderAndCaseSeparatedBySpacesTabsOrCommasTheLastOfAKindWinning() {
        AgentLine line = AgentLine.parse("75%,MAXCONN:30\tmaint down ready 80%#  the disk sda fails\r\nignored");

        assertEquals(new AgentLine(AgentLine.Health.DOWN, AgentLine.Admin.READY, 80, 30, "the disk sda fails"), line);
        assertEquals(AgentLine.Health.FAIL, AgentLine.parse("fail").health());
        assertEquals(AgentLine.Health.STOPPED, AgentLine.parse("stopped#on purpose").health());
        assertEquals(AgentLine.Admin.MAINT, AgentLine.parse("maint").admin());
    }

    @Test
    void whatALineDoesNotSayStaysUnsaid() {
        AgentLine weightOnly = AgentLine.parse("50%");

        assertNull(weightOnly.health());
        assertNull(weightOnly.admin());
        assertEquals(AgentLine.UNSAID, weightOnly.maxconn());
        assertNull(weightOnly.reason());
        assertEquals("50%", weightOnly.format());
        assertEquals("", AgentLine.parse("").format());
    }

    @Test
    void aNodeAdmitsOnlyWhenUpReadyAndOfSomeWeight() {
        assertTrue(AgentLine.parse("up ready 1% maxconn:3").admits());
        assertTrue(AgentLine.parse("40%").admits(), "what a line does not say allows");
        assertFalse(AgentLine.parse("up drain 60%").admits());
        assertFalse(AgentLine.parse("up ready 0%").admits(), "HAProxy shows a weight of 0 as DRAIN");
        assertFalse(AgentLine.parse("down ready 100% #disk sda fails").admits());
        assertFalse(AgentLine.parse("up maint").admits());
    }

    @Test
    void aWordHaproxyDoesNotKnowOrAMalformedNumberIsRefused() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> AgentLine.parse("up sleepy"));
        assertTrue(unknown.getMessage().startsWith("'sleepy' is no word of HAProxy's agent check"),
            unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AgentLine.parse("x%"));
        assertThrows(IllegalArgumentException.class, () -> AgentLine.parse("maxconn:"));
        assertThrows(IllegalArgumentException.class, () -> AgentLine.parse("maxconn:-4"));
    }

    @Test
    void aReasonKeepsToOneLine() {
        AgentLine line = new AgentLine(AgentLine.Health.DOWN, null, AgentLine.UNSAID, AgentLine.UNSAID,
            "first\r\nsecond");

        assertEquals("down #first second", line.format());
    }
}
