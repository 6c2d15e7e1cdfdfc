package io.rondo.server.cli.record;

import io.rondo.client.protocol.Publish;
import io.rondo.server.cli.console.Reasons;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The media {@code rondo record} sends: a file, or standard input from an encoder's pipe (papers/000
 * Section 1's client proxy). Its first bytes are read before anything is sent, so that the
 * container can be told from them and an encoder that takes a while to start does not keep an
 * admitted recording waiting.
 */
final class RecordInput implements AutoCloseable {

    /** Enough of the head to tell the containers apart: an ISO BMFF box header, an EBML ID. */
    static final int SNIFF_BYTES = 8;

    private static final byte[] EBML = {0x1a, 0x45, (byte) 0xdf, (byte) 0xa3};

    private final InputStream in;
    private final String name;
    private final Path file;
    private final byte[] head;

    private RecordInput(InputStream in, String name, Path file, byte[] head) {
        this.in = in;
        this.name = name;
        this.file = file;
        this.head = head;
    }

    /**
     * Opens the input and reads its first bytes.
     *
     * @param option {@code -i FILE}, or null or {@code -} for standard input
     * @param stdin  standard input
     * @throws IllegalArgumentException if the file cannot be read, or the input is empty
     */
    static RecordInput open(String option, InputStream stdin) {
        boolean standard = option == null || option.equals("-");
        Path file = standard ? null : Path.of(option);
        String name = standard ? "standard input" : option;
        InputStream in;
        try {
            in = standard ? stdin : Files.newInputStream(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + name + ": " + Reasons.of(e), e);
        }
        try {
            byte[] head = in.readNBytes(SNIFF_BYTES);
            if (head.length == 0) {
                throw new IllegalArgumentException(name + " is empty: there is nothing to record");
            }
            return new RecordInput(in, name, file, head);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + name + ": " + Reasons.of(e), e);
        }
    }

    /** {@code standard input}, or the file's name as given. */
    String name() {
        return name;
    }

    /** The first bytes, read already: the first to send. */
    byte[] head() {
        return head.clone();
    }

    /**
     * The next bytes after the head, as {@link InputStream#read(byte[])} reads them.
     *
     * @throws UncheckedIOException if the input fails
     */
    int read(byte[] buffer) {
        try {
            return in.read(buffer);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + ": " + Reasons.of(e), e);
        }
    }

    /**
     * The container to declare: {@code option} if given, else by the recording's name's extension,
     * else by the input file's, else by the first bytes.
     *
     * @param option     {@code --container}, or null
     * @param objectName the name the recording gets
     * @throws IllegalArgumentException if the option names no container Rondo records, or nothing tells
     */
    String container(String option, String objectName) {
        if (option != null) {
            return checked(option);
        }
        String known = byExtension(objectName);
        if (known == null && file != null) {
            known = byExtension(file.getFileName().toString());
        }
        if (known == null) {
            known = sniff(head);
        }
        if (known == null) {
            throw new IllegalArgumentException("cannot tell the container of " + name + " from the name " + objectName
                + " or its first bytes: give --container mp4 or --container webm");
        }
        return known;
    }

    /** {@code mp4} or {@code webm}, in any case. */
    static String checked(String option) {
        String c = option.trim().toLowerCase(Locale.ROOT);
        if (!c.equals(Publish.MP4) && !c.equals(Publish.WEBM)) {
            throw new IllegalArgumentException("--container must be mp4 (fragmented MP4) or webm, was '" + option
                + "'");
        }
        return c;
    }

    /** The container a name's extension says: .mp4, .m4v, .mov for fragmented MP4; .webm, .mkv for WebM. */
    static String byExtension(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        int dot = lower.lastIndexOf('.');
        return switch (dot < 0 || lower.indexOf('/', dot) >= 0 ? "" : lower.substring(dot + 1)) {
            case "mp4", "m4v", "mov" -> Publish.MP4;
            case "webm", "mkv" -> Publish.WEBM;
            default -> null;
        };
    }

    /** The container the first bytes show: an {@code ftyp} or {@code moov} box, or an EBML header. */
    static String sniff(byte[] head) {
        if (head.length >= SNIFF_BYTES) {
            String box = new String(head, 4, 4, StandardCharsets.ISO_8859_1);
            if (box.equals("ftyp") || box.equals("moov")) {
                return Publish.MP4;
            }
        }
        if (head.length >= EBML.length && Arrays.equals(head, 0, EBML.length, EBML, 0, EBML.length)) {
            return Publish.WEBM;
        }
        return null;
    }

    @Override
    public void close() {
        if (file == null) {
            return;
        }
        try {
            in.close();
        } catch (IOException e) {
            // Only read from: nothing is lost when closing it fails.
        }
    }
}
