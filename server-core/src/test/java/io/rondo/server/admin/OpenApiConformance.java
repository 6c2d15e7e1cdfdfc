package io.rondo.server.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi31;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Holds what the admin API answers to what its OpenAPI document ({@code openapi.yaml}, beside
 * {@code AdminServer}) says: a response's status must be documented for its operation, its
 * Content-Type must be one the document gives for that status, and its body must validate against
 * the schema there (JSON Schema 2020-12, {@code #/components/schemas/...} references resolved in the
 * document itself). An event stream is read event by event, each event's data held to the schema
 * its event name has. A failure lists every validation message at once.
 *
 * <p>Route tests call {@link #assertConforms} on every response they receive; the document's own
 * test ({@code OpenApiDocumentTest}) holds each schema's examples to it the same way.
 */
final class OpenApiConformance {

    /** The document on the classpath, as the server serves it at {@code /api/v1/openapi.yaml}. */
    static final String DOCUMENT = "io/rondo/server/admin/openapi.yaml";

    private static final String DOCUMENT_IRI = "classpath:" + DOCUMENT;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode ROOT = load();
    /**
     * The OpenAPI 3.1 dialect of JSON Schema 2020-12; the document's own top-level members, which a
     * schema pointed into it sits below, are not schema keywords.
     */
    private static final JsonMetaSchema DIALECT = JsonMetaSchema.builder(OpenApi31.getInstance())
        .keywords(Stream.of("openapi", "info", "servers", "tags", "paths", "components", "security")
            .map(NonValidationKeyword::new).collect(Collectors.toList()))
        .build();
    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
        builder -> builder.metaSchema(DIALECT).defaultMetaSchemaIri(DIALECT.getIri()));
    private static final SchemaValidatorsConfig STRICT = SchemaValidatorsConfig.builder()
        .formatAssertionsEnabled(true)
        .build();
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "options", "head", "patch",
        "trace");
    private static final Pattern PARAMETER = Pattern.compile("\\{([^}]+)}");

    private OpenApiConformance() {
    }

    /** The whole document, read once. */
    static JsonNode document() {
        return ROOT;
    }

    /**
     * Fails unless the document describes this response: {@code status} is one of the operation's
     * responses, {@code contentType} one of that response's media types (parameters such as charset
     * aside) and {@code body} valid against its schema. A response without content (204) must come
     * with an empty body.
     *
     * @param method       the request's method, any case
     * @param pathTemplate the path as the document writes it, e.g. {@code /api/v1/streams/{id}}
     *                     ({@link #pathTemplateOf} finds it for a concrete path)
     * @param status       the response's status
     * @param contentType  the response's Content-Type header, null if it had none
     * @param body         the response's body as text
     */
    static void assertConforms(String method, String pathTemplate, int status, String contentType, String body) {
        String where = method.toUpperCase(Locale.ROOT) + " " + pathTemplate + " -> " + status;
        String pointer = responsePointer(method, pathTemplate, status);
        JsonNode content = at(pointer).path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            if (body != null && !body.isEmpty()) {
                fail(where + " is documented without content, but the response has a body: " + body);
            }
            return;
        }
        if (contentType == null) {
            fail(where + " has no Content-Type; the document gives " + names(content));
        }
        String mediaType = documentedMediaType(content, contentType)
            .orElseGet(() -> fail(where + " answered Content-Type " + contentType + "; the document gives "
                + names(content)));
        String schemaPointer = pointer + "/content/" + escape(mediaType) + "/schema";
        if (at(schemaPointer).isMissingNode()) {
            return;
        }
        String base = baseType(mediaType);
        List<String> problems;
        if (base.equals("text/event-stream")) {
            problems = eventStreamProblems(schemaPointer, body);
        } else if (base.endsWith("/json") || base.endsWith("+json")) {
            problems = problems(schemaPointer, parse(JSON, body, where));
        } else if (base.endsWith("/yaml")) {
            problems = problems(schemaPointer, parse(new YAMLMapper(), body, where));
        } else {
            problems = List.of();
        }
        if (!problems.isEmpty()) {
            fail(where + " (" + contentType + ") does not conform to " + schemaPointer + ":\n  - "
                + String.join("\n  - ", problems) + "\nbody: " + body);
        }
    }

    /** Fails unless {@code json} is valid against {@code #/components/schemas/<schemaName>}, listing every message. */
    static void assertConformsTo(String schemaName, String json) {
        String pointer = "/components/schemas/" + escape(schemaName);
        if (at(pointer).isMissingNode()) {
            fail("the document has no schema " + schemaName);
        }
        List<String> problems = problems(pointer, parse(JSON, json, schemaName));
        if (!problems.isEmpty()) {
            fail(json + " is not a valid " + schemaName + ":\n  - " + String.join("\n  - ", problems));
        }
    }

    /**
     * Fails unless every header the document requires on this response is among {@code headers}
     * (names in any case) with a value its schema admits: a string schema's pattern, or an integer.
     */
    static void assertHeadersConform(String method, String pathTemplate, int status, Map<String, String> headers) {
        String where = method.toUpperCase(Locale.ROOT) + " " + pathTemplate + " -> " + status;
        String pointer = responsePointer(method, pathTemplate, status);
        Iterator<Map.Entry<String, JsonNode>> documented = at(pointer).path("headers").fields();
        List<String> problems = new ArrayList<>();
        while (documented.hasNext()) {
            Map.Entry<String, JsonNode> header = documented.next();
            JsonNode definition = resolve(header.getValue());
            Optional<String> value = headers.entrySet().stream()
                .filter(entry -> entry.getKey().equalsIgnoreCase(header.getKey()))
                .map(Map.Entry::getValue)
                .findFirst();
            if (value.isEmpty()) {
                if (definition.path("required").asBoolean(false)) {
                    problems.add("the header " + header.getKey() + " is missing");
                }
                continue;
            }
            JsonNode schema = definition.path("schema");
            String pattern = schema.path("pattern").asText(null);
            if (pattern != null && !Pattern.compile(pattern).matcher(value.get()).find()) {
                problems.add(header.getKey() + ": " + value.get() + " does not match " + pattern);
            }
            if (schema.path("type").asText().equals("integer") && !value.get().matches("[0-9]+")) {
                problems.add(header.getKey() + ": " + value.get() + " is not a whole number");
            }
        }
        if (!problems.isEmpty()) {
            fail(where + " has headers the document does not allow:\n  - " + String.join("\n  - ", problems)
                + "\nheaders: " + headers);
        }
    }

    /** Fails unless the document has the operation {@code method pathTemplate} and a response {@code status} for it. */
    static void assertDocumented(String method, String pathTemplate, int status) {
        responsePointer(method, pathTemplate, status);
    }

    /**
     * The document's path template a concrete path (its query string ignored) is routed to:
     * {@code /api/v1/streams/7} is {@code /api/v1/streams/{id}}. A path parameter whose schema admits
     * '/' (an object's name) spans segments. Where two templates match, the one that has the method
     * wins, then the one with more fixed characters: {@code POST /api/v1/objects/a.mp4/move} is the
     * move, {@code GET} of the same path the object named {@code a.mp4/move}.
     *
     * @throws AssertionError if no template matches
     */
    static String pathTemplateOf(String method, String concretePath) {
        String path = concretePath.contains("?") ? concretePath.substring(0, concretePath.indexOf('?')) : concretePath;
        String operation = method.toLowerCase(Locale.ROOT);
        String best = null;
        int bestScore = -1;
        Iterator<Map.Entry<String, JsonNode>> paths = ROOT.path("paths").fields();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> entry = paths.next();
            if (!templatePattern(entry.getKey(), entry.getValue()).matcher(path).matches()) {
                continue;
            }
            int literal = PARAMETER.matcher(entry.getKey()).replaceAll("").length();
            int score = (entry.getValue().has(operation) ? 100_000 : 0) + literal;
            if (score > bestScore) {
                best = entry.getKey();
                bestScore = score;
            }
        }
        if (best == null) {
            fail("no path of the document matches " + concretePath);
        }
        return best;
    }

    private static Pattern templatePattern(String template, JsonNode pathItem) {
        StringBuilder regex = new StringBuilder();
        Matcher parameter = PARAMETER.matcher(template);
        int last = 0;
        while (parameter.find()) {
            regex.append(Pattern.quote(template.substring(last, parameter.start())));
            regex.append(spansSegments(parameter.group(1), pathItem) ? "(.+)" : "([^/]+)");
            last = parameter.end();
        }
        regex.append(Pattern.quote(template.substring(last)));
        return Pattern.compile(regex.toString());
    }

    /** Whether the path parameter's schema admits a value with a slash in it. */
    private static boolean spansSegments(String name, JsonNode pathItem) {
        List<JsonNode> parameters = new ArrayList<>();
        pathItem.path("parameters").forEach(parameters::add);
        METHODS.forEach(method -> pathItem.path(method).path("parameters").forEach(parameters::add));
        return parameters.stream()
            .map(OpenApiConformance::resolve)
            .filter(parameter -> parameter.path("in").asText().equals("path")
                && parameter.path("name").asText().equals(name))
            .map(parameter -> parameter.path("schema").path("pattern"))
            .anyMatch(pattern -> pattern.isTextual() && Pattern.compile(pattern.asText()).matcher("a/b").find());
    }

    /** The JSON pointer of the response object documented for the operation and status, OpenAPI references followed. */
    private static String responsePointer(String method, String pathTemplate, int status) {
        String where = method.toUpperCase(Locale.ROOT) + " " + pathTemplate;
        String operationPointer = "/paths/" + escape(pathTemplate) + "/" + method.toLowerCase(Locale.ROOT);
        JsonNode operation = at(operationPointer);
        if (operation.isMissingNode()) {
            fail("the document has no operation " + where);
        }
        JsonNode responses = operation.path("responses");
        String key = responses.has(Integer.toString(status)) ? Integer.toString(status)
            : responses.has(status / 100 + "XX") ? status / 100 + "XX" : null;
        if (key == null) {
            fail(where + " is not documented to answer " + status + "; it answers " + names(responses));
        }
        String pointer = operationPointer + "/responses/" + key;
        while (at(pointer).has("$ref")) {
            pointer = at(pointer).get("$ref").asText().substring(1);
        }
        return pointer;
    }

    /** An OpenAPI object, or the one its {@code $ref} names. */
    private static JsonNode resolve(JsonNode node) {
        JsonNode resolved = node;
        while (resolved.has("$ref")) {
            resolved = at(resolved.get("$ref").asText().substring(1));
        }
        return resolved;
    }

    private static Optional<String> documentedMediaType(JsonNode content, String contentType) {
        String actual = baseType(contentType);
        Iterator<String> names = content.fieldNames();
        String wildcard = null;
        while (names.hasNext()) {
            String name = names.next();
            if (baseType(name).equals(actual)) {
                return Optional.of(name);
            }
            String range = actual.substring(0, actual.indexOf('/') + 1) + "*";
            if (baseType(name).equals("*/*") || baseType(name).equals(range)) {
                wildcard = name;
            }
        }
        return Optional.ofNullable(wildcard);
    }

    /** Each event's data against the schema the event's name has among the stream schema's alternatives. */
    private static List<String> eventStreamProblems(String schemaPointer, String body) {
        JsonNode alternatives = resolve(at(schemaPointer)).path("oneOf");
        List<String> problems = new ArrayList<>();
        int index = 0;
        for (String block : body.replace("\r\n", "\n").split("\n\n")) {
            String event = "message";
            StringBuilder data = new StringBuilder();
            for (String line : block.split("\n")) {
                if (line.startsWith("event:")) {
                    event = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    data.append(data.length() == 0 ? "" : "\n").append(line.substring(5).strip());
                } else if (!line.isEmpty() && !line.startsWith(":")) {
                    problems.add("event " + index + " has a line that is not event, data or a comment: " + line);
                }
            }
            if (data.length() == 0) {
                continue;
            }
            String name = event;
            Optional<String> dataSchema = stream(alternatives)
                .map(OpenApiConformance::resolve)
                .filter(alternative -> alternative.path("properties").path("event").path("const").asText()
                    .equals(name))
                .map(alternative -> alternative.path("properties").path("data").path("contentSchema").path("$ref"))
                .filter(JsonNode::isTextual)
                .map(ref -> ref.asText().substring(1))
                .findFirst();
            if (dataSchema.isEmpty()) {
                problems.add("event " + index + " is '" + event + "', which the document does not describe");
            } else {
                for (String problem : problems(dataSchema.get(), parse(JSON, data.toString(), "event " + index))) {
                    problems.add("event " + index + " (" + event + "): " + problem);
                }
            }
            index++;
        }
        return problems;
    }

    private static List<String> problems(String schemaPointer, JsonNode instance) {
        JsonSchema schema = SCHEMAS.getSchema(SchemaLocation.of(DOCUMENT_IRI + "#" + schemaPointer), STRICT);
        return schema.validate(instance).stream()
            .map(ValidationMessage::getMessage)
            .sorted()
            .collect(Collectors.toList());
    }

    private static JsonNode parse(ObjectMapper mapper, String text, String where) {
        try {
            return mapper.readTree(text == null ? "" : text);
        } catch (JsonProcessingException e) {
            return fail(where + ": the body does not parse: " + e.getOriginalMessage() + "\nbody: " + text);
        }
    }

    private static Stream<JsonNode> stream(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items.stream();
    }

    private static JsonNode at(String pointer) {
        return ROOT.at(pointer);
    }

    private static String names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return String.join(", ", names);
    }

    private static String baseType(String mediaType) {
        int semicolon = mediaType.indexOf(';');
        return (semicolon < 0 ? mediaType : mediaType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    /** A JSON pointer token (RFC 6901). */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static JsonNode load() {
        try (InputStream in = OpenApiConformance.class.getClassLoader().getResourceAsStream(DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException("no " + DOCUMENT + " on the classpath");
            }
            return new YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
