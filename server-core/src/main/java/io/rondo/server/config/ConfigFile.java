package io.rondo.server.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads {@code rondo.yaml} into its sections, each as written, and says plainly what is wrong
 * with a file that is not one: the file and the key by name, the line, and what the key should
 * be. A key Rondo does not know is refused, with the keys its section does know, since a misspelt
 * knob that does nothing is worse than an error. The values are checked by the section records.
 */
final class ConfigFile {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private ConfigFile() {
    }

    /**
     * The sections {@code file} writes; a file of comments alone writes none.
     *
     * @throws IllegalArgumentException if the file is missing or unreadable, is not YAML, has a key
     *                                  Rondo does not know, or a value of the wrong shape
     */
    static Document read(Path file) {
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("config file " + file + " does not exist");
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage(), e);
        }
        try (JsonParser parser = YAML.createParser(text)) {
            // A file of comments alone is no document at all: every knob at its default.
            Document document = parser.nextToken() == null ? null : YAML.readValue(parser, Document.class);
            return document == null ? Document.EMPTY : document;
        } catch (UnrecognizedPropertyException e) {
            String key = key(e);
            String section = key.contains(".") ? key.substring(0, key.lastIndexOf('.')) : "the top level";
            throw new IllegalArgumentException(file + ": unknown key '" + key + "'" + lineOf(e.getPropertyName(), text)
                + "; " + section + " knows " + e.getKnownPropertyIds().stream().map(Object::toString).sorted()
                .collect(Collectors.joining(", ")), e);
        } catch (MismatchedInputException e) {
            throw new IllegalArgumentException(file + ": '" + key(e) + "'" + line(e.getLocation()) + " must be "
                + expected(e.getTargetType()), e);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not valid YAML" + line(e.getLocation()) + ": "
                + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The dotted key an exception is about: {@code storage.roots}. */
    private static String key(JsonMappingException e) {
        return e.getPath().stream()
            .map(reference -> reference.getFieldName() != null ? reference.getFieldName()
                : "[" + reference.getIndex() + "]")
            .collect(Collectors.joining(".")).replace(".[", "[");
    }

    /**
     * Where an unknown key is written: the parser has moved past it by the time it is refused, so
     * its line is found in the text, the first line that sets it.
     */
    private static String lineOf(String key, String text) {
        Pattern setting = Pattern.compile("^\\s*(-\\s*)?[\"']?" + Pattern.quote(key) + "[\"']?\\s*:");
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (setting.matcher(lines.get(i)).find()) {
                return " (line " + (i + 1) + ")";
            }
        }
        return "";
    }

    private static String line(JsonLocation location) {
        return location == null || location.getLineNr() < 1 ? "" : " (line " + location.getLineNr() + ")";
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "something else";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a whole number";
        }
        if (type == String.class) {
            return "a single value";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "a section of keys";
    }

    /** The file's sections, each as written; a section left out is read as empty, every key at its default. */
    record Document(StorageSettings.Section storage, SchedulerSettings.Section scheduler,
                    BufferSettings.Section buffers, AdmissionSettings.Section admission,
                    NetworkSettings.Section network, HttpSettings.Section http, StreamSettings.Section streams,
                    AdminSettings.Section admin, DiscreteSettings.Section discrete, LiveSettings.Section live,
                    ClusterSettings.Section cluster) {

        /** No section at all: the defaults. */
        static final Document EMPTY = new Document(null, null, null, null, null, null, null, null, null, null, null);

        Document {
            storage = Settings.orDefault(storage, StorageSettings.Section.EMPTY);
            scheduler = Settings.orDefault(scheduler, SchedulerSettings.Section.EMPTY);
            buffers = Settings.orDefault(buffers, BufferSettings.Section.EMPTY);
            admission = Settings.orDefault(admission, AdmissionSettings.Section.EMPTY);
            network = Settings.orDefault(network, NetworkSettings.Section.EMPTY);
            http = Settings.orDefault(http, HttpSettings.Section.EMPTY);
            streams = Settings.orDefault(streams, StreamSettings.Section.EMPTY);
            admin = Settings.orDefault(admin, AdminSettings.Section.EMPTY);
            discrete = Settings.orDefault(discrete, DiscreteSettings.Section.EMPTY);
            live = Settings.orDefault(live, LiveSettings.Section.EMPTY);
            cluster = Settings.orDefault(cluster, ClusterSettings.Section.EMPTY);
        }
    }
}
