package io.rondo.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The policy a data folder keeps ({@code DATA/rondo/policy.json}): the folder's id, the policy's
 * generation, and the policy as last changed through the API (null until it is). It is written
 * whole beside itself, forced to the disk and renamed over the old one, so a crash leaves the old
 * file or the new, never a part of either.
 */
public final class PolicyFile {

    private static final Pattern ID = Pattern.compile("[0-9a-f]{16}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path path;

    /** The file at {@code path}; it need not exist yet. */
    public PolicyFile(Path path) {
        this.path = path;
    }

    /**
     * What the file keeps.
     *
     * @param id         the data folder's id: 16 hexadecimal digits, drawn once
     * @param generation how many changes and starts the policy has seen
     * @param policy     the policy as last changed, or null when it never was
     */
    record State(String id, long generation, JsonNode policy) {

        /** A data folder's first: a new id, generation 0, no policy changed. */
        static State fresh() {
            byte[] id = new byte[8];
            RANDOM.nextBytes(id);
            return new State(HexFormat.of().formatHex(id), 0, null);
        }
    }

    /**
     * What the file keeps; {@link State#fresh()} when there is no file.
     *
     * @throws IllegalStateException if the file cannot be read, or is not what Rondo writes
     */
    State load() {
        if (!Files.exists(path)) {
            return State.fresh();
        }
        try {
            JsonNode kept = ApiReply.JSON.readTree(Files.readAllBytes(path));
            JsonNode id = kept == null ? null : kept.get("id");
            JsonNode generation = kept == null ? null : kept.get("generation");
            JsonNode policy = kept == null ? null : kept.get("policy");
            if (id == null || !id.isTextual() || !ID.matcher(id.asText()).matches() || generation == null
                || !generation.canConvertToLong() || generation.asLong() < 0 || policy == null
                || !(policy.isNull() || policy.isObject())) {
                throw new IllegalStateException(path + " is not a policy Rondo wrote (id, generation, policy); "
                    + "delete it to go back to rondo.yaml's policy");
            }
            return new State(id.asText(), generation.asLong(), policy.isNull() ? null : policy);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path + ": " + e.getMessage()
                + "; delete it to go back to rondo.yaml's policy", e);
        }
    }

    /**
     * Keeps {@code state}: written beside the file, forced, renamed over it, the folder forced.
     *
     * @throws IllegalStateException if it cannot be written; the old file is then as it was
     */
    void save(State state) {
        ObjectNode document = ApiReply.JSON.createObjectNode();
        document.put("id", state.id());
        document.put("generation", state.generation());
        document.set("policy", state.policy());
        Path aside = path.resolveSibling(path.getFileName() + ".new");
        try {
            Files.createDirectories(path.getParent());
            byte[] bytes = ApiReply.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(document);
            try (FileChannel out = FileChannel.open(aside, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                out.force(true);
            }
            try {
                Files.move(aside, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(aside, path, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel folder = FileChannel.open(path.getParent(), StandardOpenOption.READ)) {
                folder.force(true);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(aside);
            } catch (IOException ignored) {
                // The file beside is left for the next save to write over.
            }
            throw new IllegalStateException("cannot keep the policy in " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
