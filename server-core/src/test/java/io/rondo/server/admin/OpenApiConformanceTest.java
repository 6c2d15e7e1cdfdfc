package io.rondo.server.admin;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker the route tests rely on, on bodies written by hand: it passes what the document
 * describes and fails, naming the fault, on what drifts from it.
 */
class OpenApiConformanceTest {

    private static final String JSON = "application/json";
    private static final String PROBLEM = "application/problem+json";
    private static final String POLICY = """
        {"scheduler":{"policy":"mixed-incremental-scan","roundMs":1000},
         "admission":{"policy":"adm2","discreteReserve":0.2},
         "discrete":{"responseBoundMs":1800},
         "buffers":{"ceilingBytes":3221225472},
         "network":{"capacityBitsPerSecond":null}}""";
    private static final String STREAM = """
        {"id":7,"object":"/videos/a.mp4","client":"127.0.0.1:53422","transport":"tcp","state":"playing",
         "startedAt":"2026-11-23T18:00:00Z","positionSeconds":12.0,
         "profile":{"receiveBytesPerSecond":4194304,"bufferBytes":16777216},"bufferMode":"clbufrate",
         "disks":["sda"],"bytesSent":123,
         "fragmentsSent":12,"glitches":0,"maxLatenessMs":-950.2,"initialLatencyMs":null}""";
    private static final String NOT_FOUND = """
        {"type":"urn:rondo:problem:not-found","title":"Not found","status":404,"detail":"no stream 7",
         "code":"not-found"}""";

    @Test
    void aPolicyAsTheContractWritesItPasses() {
        OpenApiConformance.assertConforms("GET", "/api/v1/policy", 200, "application/json; charset=utf-8", POLICY);
    }

    @Test
    void aPolicyMissingAMemberFailsNamingIt() {
        String withoutNetwork = POLICY.replace(",\n \"network\":{\"capacityBitsPerSecond\":null}", "");
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("GET", "/api/v1/policy", 200, JSON, withoutNetwork));
        assertTrue(failure.getMessage().contains("network"), failure.getMessage());
    }

    @Test
    void aPolicyWithAMemberTheDocumentDoesNotHaveFails() {
        String extra = POLICY.replace("\"roundMs\":1000", "\"roundMs\":1000,\"roundNs\":1000000000");
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("GET", "/api/v1/policy", 200, JSON, extra));
        assertTrue(failure.getMessage().contains("roundNs"), failure.getMessage());
    }

    @Test
    void everyFaultOfABodyIsListedAtOnce() {
        String twoFaults = POLICY.replace("\"adm2\"", "\"adm9\"").replace("3221225472", "\"3G\"");
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("GET", "/api/v1/policy", 200, JSON, twoFaults));
        assertTrue(failure.getMessage().contains("/admission/policy")
            && failure.getMessage().contains("/buffers/ceilingBytes"), failure.getMessage());
    }

    @Test
    void aPageOfStreamsPassesAndItsNextCursorMayBeNull() {
        OpenApiConformance.assertConforms("GET", "/api/v1/streams", 200, JSON,
            "{\"items\":[" + STREAM + "],\"next\":\"c2\"}");
        OpenApiConformance.assertConforms("GET", "/api/v1/streams", 200, JSON, "{\"items\":[],\"next\":null}");
    }

    @Test
    void aStreamInAnUnknownStateOrWithANonNumericLatenessFails() {
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("GET", "/api/v1/streams/{id}", 200, JSON,
                STREAM.replace("\"playing\"", "\"buffering\"").replace("-950.2", "\"early\"")));
        assertTrue(failure.getMessage().contains("state") && failure.getMessage().contains("maxLatenessMs"),
            failure.getMessage());
    }

    @Test
    void aNotFoundProblemPassesAndOneWithoutItsCodeFails() {
        OpenApiConformance.assertConforms("GET", "/api/v1/streams/{id}", 404, PROBLEM, NOT_FOUND);
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("GET", "/api/v1/streams/{id}", 404, PROBLEM,
                NOT_FOUND.replace(",\n \"code\":\"not-found\"", "")));
        assertTrue(failure.getMessage().contains("code"), failure.getMessage());
    }

    @Test
    void aProblemMayCarryExtensionsButNotAnotherStatusThanItsResponse() {
        OpenApiConformance.assertConforms("GET", "/api/v1/streams", 400, PROBLEM,
            "{\"type\":\"urn:rondo:problem:invalid-request\",\"title\":\"Invalid request\",\"status\":400,"
                + "\"detail\":\"limit must be 1 to 500\",\"code\":\"invalid-request\",\"field\":\"limit\"}");
        assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("GET", "/api/v1/streams/{id}", 404, PROBLEM,
                NOT_FOUND.replace("404", "410")));
    }

    @Test
    void anUnprocessablePolicyChangeNeedsItsField() {
        String unprocessable = "{\"type\":\"urn:rondo:problem:unprocessable\",\"title\":\"Cannot be applied\","
            + "\"status\":422,\"detail\":\"the round length cannot change\",\"code\":\"unprocessable\"";
        OpenApiConformance.assertConforms("PATCH", "/api/v1/policy", 422, PROBLEM,
            unprocessable + ",\"field\":\"scheduler.roundMs\"}");
        assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("PATCH", "/api/v1/policy", 422, PROBLEM, unprocessable + "}"));
    }

    /** A delete is refused only while the object is being recorded (its readers never stop it). */
    @Test
    void aDeleteIsRefusedWhileTheObjectIsBeingRecorded() {
        OpenApiConformance.assertConforms("DELETE", "/api/v1/objects/{name}", 409, PROBLEM,
            "{\"type\":\"urn:rondo:problem:conflict\",\"title\":\"Conflict\",\"status\":409,"
                + "\"detail\":\"/cams/a.mp4 is being recorded: stop its recording first\",\"code\":\"conflict\"}");
    }

    @Test
    void aContentTypeTheResponseDoesNotDocumentFails() {
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("GET", "/api/v1/streams/{id}", 404, JSON, NOT_FOUND));
        assertTrue(failure.getMessage().contains("application/problem+json"), failure.getMessage());
    }

    @Test
    void anUndocumentedStatusOrOperationFails() {
        OpenApiConformance.assertDocumented("PATCH", "/api/v1/policy", 428);
        assertThrows(AssertionFailedError.class, () -> OpenApiConformance.assertDocumented("GET", "/api/v1/info", 404));
        assertThrows(AssertionFailedError.class, () -> OpenApiConformance.assertDocumented("PUT", "/api/v1/info", 200));
    }

    @Test
    void aResponseWithoutContentMustComeWithoutABody() {
        OpenApiConformance.assertConforms("DELETE", "/api/v1/streams/{id}", 204, null, "");
        assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("DELETE", "/api/v1/streams/{id}", 204, JSON, "{}"));
    }

    @Test
    void anEventStreamIsCheckedEventByEvent() {
        String hello = "event: hello\ndata: {\"version\":\"0.1.0-SNAPSHOT\",\"disks\":[\"sda\"],\"roundMs\":1000}\n\n";
        String round = "event: round\ndata: {\"disk\":\"sda\",\"round\":3,\"startedAt\":\"2026-11-23T18:00:03Z\","
            + "\"lengthMs\":1000,\"slackMs\":-12.5,\"durationMs\":1012.5,\"continuous\":3,\"discrete\":0,"
            + "\"glitches\":1,\"overrun\":true}\n\n";
        OpenApiConformance.assertConforms("GET", "/api/v1/events", 200, "text/event-stream",
            hello + ": keep-alive\n\n" + round);
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConforms("GET", "/api/v1/events", 200, "text/event-stream",
                hello + round.replace("\"overrun\":true", "\"overrun\":\"yes\"") + "event: gossip\ndata: {}\n\n"));
        assertTrue(failure.getMessage().contains("overrun") && failure.getMessage().contains("gossip"),
            failure.getMessage());
    }

    @Test
    void aStartedAtThatIsNotADateTimeFails() {
        assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertConformsTo("Stream", STREAM.replace("2026-11-23T18:00:00Z", "yesterday")));
    }

    @Test
    void requiredHeadersArePresentAndMatchTheirSchemas() {
        OpenApiConformance.assertHeadersConform("GET", "/api/v1/policy", 200,
            Map.of("etag", "\"p3-5f0c2a9e71d4b836\""));
        OpenApiConformance.assertHeadersConform("GET", "/api/v1/info", 401,
            Map.of("WWW-Authenticate", "Bearer realm=\"rondo\", error=\"invalid_token\""));
        assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertHeadersConform("GET", "/api/v1/policy", 200, Map.of("ETag", "\"v3\"")));
        assertThrows(AssertionFailedError.class,
            () -> OpenApiConformance.assertHeadersConform("GET", "/api/v1/info", 401, Map.of()));
    }

    @Test
    void aConcretePathIsMatchedToItsTemplate() {
        assertEquals("/api/v1/streams/{id}", OpenApiConformance.pathTemplateOf("GET", "/api/v1/streams/7"));
        assertEquals("/api/v1/streams", OpenApiConformance.pathTemplateOf("GET", "/api/v1/streams?limit=2"));
        assertEquals("/api/v1/disks/{name}", OpenApiConformance.pathTemplateOf("GET", "/api/v1/disks/sda"));
        assertEquals("/api/v1/objects/{name}",
            OpenApiConformance.pathTemplateOf("GET", "/api/v1/objects/videos/a.mp4"));
        assertEquals("/api/v1/objects/{name}/move",
            OpenApiConformance.pathTemplateOf("POST", "/api/v1/objects/videos/a.mp4/move"));
        assertEquals("/api/v1/objects/{name}", OpenApiConformance.pathTemplateOf("GET", "/api/v1/objects/a/move"));
        assertEquals("/api/v1/openapi.yaml", OpenApiConformance.pathTemplateOf("GET", "/api/v1/openapi.yaml"));
        assertThrows(AssertionFailedError.class, () -> OpenApiConformance.pathTemplateOf("GET", "/api/v1/streams/7/x"));
    }
}
