package io.rondo.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin API's OpenAPI document as its readers meet it: swagger-parser reads it without a
 * message, every operation says what it is, who may call it and how it fails, and every example
 * in it is valid against its own schema.
 */
class OpenApiDocumentTest {

    /** The routes anyone may call: probes, the document itself and the dashboard's files. */
    private static final Set<String> OPEN = Set.of("/healthz", "/readyz", "/api/v1/openapi.yaml", "/admin",
        "/admin/", "/admin/{file}");
    private static final String PROBLEM = "#/components/schemas/Problem";

    private static OpenAPI api;
    private static List<String> messages;

    @BeforeAll
    static void parse() throws IOException {
        String yaml;
        try (InputStream in = OpenApiDocumentTest.class.getClassLoader()
                 .getResourceAsStream(OpenApiConformance.DOCUMENT)) {
            assertNotNull(in, "the document is on the classpath at " + OpenApiConformance.DOCUMENT);
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(yaml, null, options);
        api = result.getOpenAPI();
        messages = result.getMessages() == null ? List.of() : result.getMessages();
    }

    @Test
    void swaggerParserReadsTheDocumentAsOpenApi31WithoutAMessage() {
        assertEquals(List.of(), messages, "swagger-parser's messages");
        assertNotNull(api, "the document parses");
        assertEquals(SpecVersion.V31, api.getSpecVersion());
        assertEquals("3.1.0", api.getOpenapi());
    }

    @Test
    void everyOperationHasAUniqueOperationIdAndASummary() {
        Set<String> ids = new HashSet<>();
        operations().forEach((label, operation) -> {
            assertTrue(operation.getOperationId() != null && !operation.getOperationId().isBlank(),
                label + " has an operationId");
            assertTrue(ids.add(operation.getOperationId()), label + "'s operationId is unique");
            assertTrue(operation.getSummary() != null && !operation.getSummary().isBlank(), label + " has a summary");
        });
    }

    @Test
    void probesTheDocumentAndTheDashboardNeedNoTokenAndEveryOtherRouteItsScope() {
        SecurityScheme bearer = api.getComponents().getSecuritySchemes().get("bearer");
        assertEquals(SecurityScheme.Type.HTTP, bearer.getType());
        assertEquals("bearer", bearer.getScheme());
        assertTrue(bearer.getDescription().contains("`read`") && bearer.getDescription().contains("`admin`")
            && bearer.getDescription().contains("`publish`"), "the scheme's description names the three scopes");
        operations().forEach((label, operation) -> {
            String path = label.substring(label.indexOf(' ') + 1);
            List<SecurityRequirement> security = operation.getSecurity();
            assertNotNull(security, label + " states its security itself");
            if (OPEN.contains(path)) {
                assertEquals(List.of(), security, label + " needs no token");
                return;
            }
            String scope = label.startsWith("GET ") ? "read" : label.equals("PUT /api/v1/live/{name}") ? "publish"
                : "admin";
            assertEquals(List.of(new SecurityRequirement().addList("bearer", scope)), security,
                label + " needs a token of scope " + scope);
            for (String status : List.of("401", "403")) {
                assertNotNull(operation.getResponses().get(status), label + " documents " + status);
                ApiResponse response = resolved(operation.getResponses().get(status));
                assertTrue(response.getHeaders() != null && response.getHeaders().containsKey("WWW-Authenticate"),
                    label + "'s " + status + " carries WWW-Authenticate");
            }
        });
    }

    @Test
    void everyOperationThatCanFailDocumentsItsFailuresAsProblems() {
        operations().forEach((label, operation) -> {
            boolean takesInput = operation.getRequestBody() != null
                || operation.getParameters() != null && !operation.getParameters().isEmpty();
            boolean clientErrors = operation.getResponses().keySet().stream().anyMatch(s -> s.startsWith("4"));
            assertTrue(clientErrors || !takesInput && OPEN.contains(label.substring(label.indexOf(' ') + 1)),
                label + " documents a 4xx response");
            operation.getResponses().forEach((status, documented) -> {
                if (!status.startsWith("4") && !status.startsWith("5")) {
                    return;
                }
                ApiResponse response = resolved(documented);
                MediaType problem = response.getContent() == null ? null
                    : response.getContent().get("application/problem+json");
                assertNotNull(problem, label + "'s " + status + " is application/problem+json");
                assertTrue(isProblem(problem.getSchema()), label + "'s " + status + " has the Problem schema");
            });
        });
    }

    @Test
    void problemsRequireTheirFiveMembersAndAllowExtensions() {
        JsonNode problem = OpenApiConformance.document().at("/components/schemas/Problem");
        List<String> required = new ArrayList<>();
        problem.path("required").forEach(name -> required.add(name.asText()));
        assertEquals(List.of("type", "title", "status", "detail", "code"), required);
        assertTrue(problem.path("additionalProperties").asBoolean(), "a problem may carry extension members");
    }

    @Test
    void everyNamedSchemaIsThereAndEveryResponseObjectRefusesUnknownMembers() {
        JsonNode schemas = OpenApiConformance.document().path("components").path("schemas");
        for (String name : List.of("Policy", "PolicyPatch", "PolicyChange", "Info", "Stream", "StreamPage", "Disk",
            "DiskList", "Round", "MediaObject", "ObjectPage", "Move", "Admission", "Problem", "Health", "HelloEvent",
            "StreamEvent")) {
            assertTrue(schemas.has(name), "components.schemas has " + name);
        }
        List<String> open = new ArrayList<>();
        collectOpenObjects("#/components/schemas", schemas, open);
        assertEquals(List.of("#/components/schemas/Problem"), open,
            "object schemas that admit members they do not name");
    }

    @Test
    void everySchemasExamplesAreValidAgainstIt() throws IOException {
        ObjectMapper json = new ObjectMapper();
        Iterator<Map.Entry<String, JsonNode>> schemas = OpenApiConformance.document().path("components")
            .path("schemas").fields();
        int examples = 0;
        while (schemas.hasNext()) {
            Map.Entry<String, JsonNode> schema = schemas.next();
            for (JsonNode example : schema.getValue().path("examples")) {
                OpenApiConformance.assertConformsTo(schema.getKey(), json.writeValueAsString(example));
                examples++;
            }
        }
        assertTrue(examples >= 12, "the schemas carry examples, found " + examples);
    }

    @Test
    void everyResponseExampleConformsToItsOperation() throws IOException {
        ObjectMapper json = new ObjectMapper();
        int examples = 0;
        for (Map.Entry<String, Operation> entry : operations().entrySet()) {
            String method = entry.getKey().substring(0, entry.getKey().indexOf(' '));
            String path = entry.getKey().substring(entry.getKey().indexOf(' ') + 1);
            for (Map.Entry<String, ApiResponse> response : entry.getValue().getResponses().entrySet()) {
                ApiResponse definition = resolved(response.getValue());
                if (definition.getContent() == null) {
                    continue;
                }
                for (Map.Entry<String, MediaType> media : definition.getContent().entrySet()) {
                    if (!media.getKey().endsWith("json") || media.getValue().getExamples() == null) {
                        continue;
                    }
                    for (var example : media.getValue().getExamples().values()) {
                        OpenApiConformance.assertConforms(method, path, Integer.parseInt(response.getKey()),
                            media.getKey(), json.writeValueAsString(example.getValue()));
                        examples++;
                    }
                }
            }
        }
        assertTrue(examples >= 8, "the responses carry examples, found " + examples);
    }

    @Test
    void theEventStreamsExampleConformsEventByEvent() {
        String example = api.getPaths().get("/api/v1/events").getGet().getResponses().get("200").getContent()
            .get("text/event-stream").getExample().toString();
        OpenApiConformance.assertConforms("GET", "/api/v1/events", 200, "text/event-stream", example);
    }

    /** A response, or the component its {@code $ref} names. */
    private static ApiResponse resolved(ApiResponse response) {
        if (response.get$ref() == null) {
            return response;
        }
        String name = response.get$ref().substring(response.get$ref().lastIndexOf('/') + 1);
        ApiResponse component = api.getComponents().getResponses().get(name);
        assertNotNull(component, "the response " + response.get$ref() + " exists");
        return component;
    }

    private static boolean isProblem(Schema<?> schema) {
        if (schema == null) {
            return false;
        }
        if (PROBLEM.equals(schema.get$ref())) {
            return true;
        }
        return schema.getAllOf() != null && schema.getAllOf().stream().anyMatch(part -> PROBLEM.equals(part.get$ref()));
    }

    /** Every schema below {@code node} that declares properties but not {@code additionalProperties: false}. */
    private static void collectOpenObjects(String where, JsonNode node, List<String> open) {
        if (node.isObject()) {
            if (node.has("properties") && !node.path("additionalProperties").isBoolean()
                && !where.contains("/allOf/")) {
                open.add(where);
            } else if (node.path("additionalProperties").asBoolean(false)) {
                open.add(where);
            }
            node.fields().forEachRemaining(field -> {
                if (!field.getKey().equals("examples")) {
                    collectOpenObjects(where + "/" + field.getKey(), field.getValue(), open);
                }
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectOpenObjects(where + "/" + i, node.get(i), open);
            }
        }
    }

    /** Every operation, labelled {@code GET /api/v1/info}, in document order. */
    private static Map<String, Operation> operations() {
        Map<String, Operation> operations = new LinkedHashMap<>();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
            operations.put(method.name() + " " + path, operation)));
        assertFalse(operations.isEmpty(), "the document has operations");
        return operations;
    }
}
