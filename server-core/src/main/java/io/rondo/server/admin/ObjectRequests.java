package io.rondo.server.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.Kind;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.server.config.BitRates;
import io.rondo.server.content.PlayerFiles;

import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * What a request to {@code /api/v1/objects} says, read and checked: the object's name from the
 * path, an upload's {@code kind} and {@code bitrate}, a move's body; and the problems the objects'
 * routes answer with.
 */
final class ObjectRequests {

    private ObjectRequests() {
    }

    /** The object named by the request's path: its {@code name} variable, with the leading '/' put back. */
    static String nameOf(ApiRequest request) {
        return normalized("/" + request.variable("name"), "name");
    }

    /** {@code name} in its normal form; 400 naming {@code field} if no object can have it. */
    static String normalized(String name, String field) {
        try {
            return ObjectNames.normalize(name);
        } catch (IllegalArgumentException e) {
            throw Problem.invalid(field, e.getMessage());
        }
    }

    /** An upload's {@code kind}, or null to let the content decide. */
    static Kind kind(String text) {
        if (text == null) {
            return null;
        }
        return switch (text) {
            case "discrete" -> Kind.DISCRETE;
            case "continuous" -> Kind.CONTINUOUS;
            default -> throw Problem.invalid("kind", "kind is discrete or continuous (without it the content "
                + "decides), was '" + text + "'");
        };
    }

    /** A declared bit rate, to stream media Rondo cannot index with a constant-bit-rate estimate; 0 if none. */
    static long bitRate(String text) {
        return text == null ? 0 : bitRate(text, "bitrate");
    }

    /** A rate in bits a second such as {@code 8M}, the query parameter {@code field}'s value; 400 if it is none. */
    static long bitRate(String text, String field) {
        long bits;
        try {
            bits = BitRates.parse(text, field);
        } catch (IllegalArgumentException e) {
            throw Problem.invalid(field, e.getMessage());
        }
        if (bits == AdmissionConfig.UNLIMITED_NETWORK) {
            throw Problem.invalid(field, field + " is a rate in bits a second like 2M (k, M, G: powers of 1000), "
                + "was '" + text + "'");
        }
        return bits;
    }

    /** The new name in a move's body, {@code {"to": "/new/name"}}, with its Content-Type checked. */
    static String moveTarget(ApiRequest request) {
        String type = request.headers().get("Content-Type");
        if (type != null && !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw Problem.unsupportedMediaType("a move's body is JSON, {\"to\": \"/new/name\"}, as "
                + "application/json; was " + type);
        }
        JsonNode move;
        try {
            move = ApiReply.JSON.readTree(request.body());
        } catch (JsonProcessingException e) {
            throw Problem.invalid(null, "the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw Problem.invalid(null, "the body is not JSON: " + e.getMessage());
        }
        if (move == null || !move.isObject()) {
            throw Problem.invalid(null, "a move is a JSON object naming the new name, e.g. {\"to\":\"/videos/b.mp4\"}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = move.fields(); fields.hasNext(); ) {
            String field = fields.next().getKey();
            if (!field.equals("to")) {
                throw Problem.invalid(field, "a move has one field, to; not '" + field + "'");
            }
        }
        JsonNode to = move.get("to");
        if (to == null || !to.isTextual()) {
            throw Problem.invalid("to", "to is the object's new name as a string, e.g. \"/videos/b.mp4\"");
        }
        return normalized(to.textValue(), "to");
    }

    /** 400 unless {@code name} is outside the bundled player's folder, which only the server writes. */
    static void notReserved(String field, String name) {
        if (PlayerFiles.reserved(name)) {
            throw Problem.invalid(field, PlayerFiles.FOLDER + " holds Rondo's bundled player, which only the server "
                + "writes; " + name + " cannot be uploaded, moved or deleted");
        }
    }

    /** 409: {@code name} is taken. */
    static Problem taken(String name) {
        return Problem.conflict("an object named " + name + " already exists; delete it first or choose another "
            + "name");
    }
}
