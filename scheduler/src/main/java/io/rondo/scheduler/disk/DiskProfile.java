package io.rondo.scheduler.disk;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A disk described by a profile file ({@code config/disks/*.json}): cylinders, a piecewise seek
 * curve, the revolution time and transfer rates by zone, as papers/001 Table 1 gives them for its
 * disk ({@code nerjes-1999}).
 *
 * <p>Byte addresses map linearly onto cylinders. Each seek piece is
 * {@code constantMs + sqrtMs * sqrt(d) + linearMs * d} for a cylinder distance {@code d} from its
 * {@code fromDistance} on; a distance of 0 costs no seek. The seek times of every distance are
 * computed once into a table, so an estimate costs two divisions and a lookup.
 */
public final class DiskProfile implements DiskModel {

    /** The profile of papers/001 Table 1, shipped with Rondo. */
    public static final String PAPER_DISK = "nerjes-1999";

    /** Where two seek pieces join, rounding may make the curve dip by this much; the table evens it out. */
    private static final long SEEK_JOIN_TOLERANCE_NS = 1_000;
    private static final String BUILT_IN_FOLDER = "/io/rondo/scheduler/disk/profiles/";
    private static final List<String> BUILT_IN = List.of(PAPER_DISK);
    private static final ObjectMapper JSON = new ObjectMapper()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final String name;
    private final String description;
    private final long capacityBytes;
    private final int cylinders;
    private final long bytesPerCylinder;
    private final long revolutionNs;
    private final long[] seekNsByDistance;
    private final double[] nsPerByteByCylinder;
    private final List<MeasuredRow> measuredRows;
    private final Measurement measurement;
    private final WriteCurve writeCurve;

    private DiskProfile(Json json) {
        validate(json);
        this.name = json.name();
        this.description = json.description() == null ? "" : json.description();
        this.capacityBytes = json.capacityBytes();
        this.cylinders = json.cylinders();
        this.bytesPerCylinder = Math.max(1, capacityBytes / cylinders);
        this.revolutionNs = Math.round(json.revolutionMs() * 1e6);
        this.seekNsByDistance = seekTable(json.seekCurve(), cylinders);
        this.nsPerByteByCylinder = zoneTable(json.zones(), cylinders);
        this.measuredRows = measuredRows(json.measured());
        this.measurement = measurement(json.measured());
        this.writeCurve = writeCurve(json.measured());
    }

    /** The disk of papers/001 Table 1. */
    public static DiskProfile paperDisk() {
        return builtIn(PAPER_DISK);
    }

    /** A profile shipped inside Rondo, by name. */
    public static DiskProfile builtIn(String name) {
        try (InputStream in = DiskProfile.class.getResourceAsStream(BUILT_IN_FOLDER + name + ".json")) {
            if (in == null) {
                throw new IllegalArgumentException(
                    "no built-in disk profile named '" + name + "'; built-in profiles: " + BUILT_IN);
            }
            return parse(JSON.readValue(in, Json.class), "built-in profile " + name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read built-in disk profile " + name, e);
        }
    }

    /** A profile file. */
    public static DiskProfile load(Path file) {
        String json;
        try {
            json = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read disk profile " + file + ": " + e.getMessage(), e);
        }
        return fromJson(json, file.toString());
    }

    /**
     * A profile in a file's format, held in memory: {@code source} names it in messages.
     *
     * @throws IllegalArgumentException if it is not a valid profile
     */
    public static DiskProfile fromJson(String json, String source) {
        try {
            return parse(JSON.readValue(json, Json.class), source);
        } catch (JsonProcessingException e) {
            String problem = e.getCause() instanceof IllegalArgumentException invalid
                ? invalid.getMessage() : e.getOriginalMessage();
            throw new IllegalArgumentException("disk profile " + source + " is not valid: " + problem, e);
        }
    }

    /**
     * A profile file if {@code nameOrPath} names one, else the built-in profile of that name.
     *
     * @throws IllegalArgumentException if there is neither, saying which was looked for
     */
    public static DiskProfile resolve(String nameOrPath) {
        Path path = Path.of(nameOrPath);
        if (Files.isRegularFile(path)) {
            return load(path);
        }
        if (nameOrPath.contains("/") || nameOrPath.endsWith(".json") || Files.exists(path)) {
            throw new IllegalArgumentException("the disk profile file " + nameOrPath
                + (Files.exists(path) ? " is not a regular file" : " does not exist") + "; built-in profiles: "
                + BUILT_IN);
        }
        return builtIn(nameOrPath);
    }

    private static DiskProfile parse(Json json, String source) {
        try {
            return new DiskProfile(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("disk profile " + source + ": " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public int cylinders() {
        return cylinders;
    }

    /** The cylinder a byte address lies on. */
    public int cylinderOf(long position) {
        long cylinder = position / bytesPerCylinder;
        return (int) Math.min(Math.max(cylinder, 0), cylinders - 1L);
    }

    /** A position on the given cylinder: its first byte. */
    public long positionOfCylinder(int cylinder) {
        return cylinder * bytesPerCylinder;
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public long seekNs(long fromPosition, long toPosition) {
        return seekNsByDistance[Math.abs(cylinderOf(fromPosition) - cylinderOf(toPosition))];
    }

    @Override
    public long maxSeekNs() {
        return seekNsByDistance[cylinders - 1];
    }

    @Override
    public long worstCaseRotationNs() {
        return revolutionNs;
    }

    @Override
    public long transferNs(long position, long sizeBytes) {
        return (long) Math.ceil(sizeBytes * nsPerByteByCylinder[cylinderOf(position)]);
    }

    /**
     * The throughput {@code rondo profile} measured against IO size (papers/000 Figure 3),
     * smallest size first; empty for a profile that was not measured, such as the paper's disk.
     * Admission control reads its min and mean curves from these rows.
     */
    public List<MeasuredRow> measuredRows() {
        return measuredRows;
    }

    /**
     * Where and when the profile was measured and what was found, as its {@code measured} section
     * says; empty for a profile that was not measured, such as the paper's disk.
     */
    public Optional<Measurement> measurement() {
        return Optional.ofNullable(measurement);
    }

    /**
     * The writes {@code rondo profile} timed (each a direct write made durable, into blocks reserved
     * ahead, as a recording writes: papers/000 Section 2.1's write streams), under
     * {@code measured.write}; empty for a profile that has none: one measured before writes were
     * timed, or a modelled disk such as the paper's. Admission then charges writes as reads.
     */
    public Optional<WriteCurve> writeCurve() {
        return Optional.ofNullable(writeCurve);
    }

    @Override
    public String toString() {
        return name;
    }

    private static void validate(Json json) {
        require(json.cylinders() > 0, "'cylinders' must be positive, was " + json.cylinders());
        require(json.capacityBytes() >= json.cylinders(),
            "'capacityBytes' must be at least one byte per cylinder, was " + json.capacityBytes());
        require(json.revolutionMs() > 0, "'revolutionMs' must be positive, was " + json.revolutionMs());
        require(json.seekCurve() != null && !json.seekCurve().isEmpty(), "'seekCurve' needs at least one piece");
        require(json.seekCurve().get(0).fromDistance() == 1, "the first seek piece must start at distance 1");
        for (int i = 1; i < json.seekCurve().size(); i++) {
            require(json.seekCurve().get(i).fromDistance() > json.seekCurve().get(i - 1).fromDistance(),
                "seek pieces must be in increasing 'fromDistance' order");
        }
        require(json.zones() != null && !json.zones().isEmpty(), "'zones' needs at least one zone");
        require(json.zones().get(0).fromCylinder() == 0, "the first zone must start at cylinder 0");
        for (int i = 0; i < json.zones().size(); i++) {
            Zone zone = json.zones().get(i);
            require(zone.transferBytesPerSecond() > 0, "zone " + i + ": 'transferBytesPerSecond' must be positive");
            require(i == 0 || zone.fromCylinder() > json.zones().get(i - 1).fromCylinder(),
                "zones must be in increasing 'fromCylinder' order");
            require(zone.fromCylinder() < json.cylinders(), "zone " + i + " starts past the last cylinder");
        }
    }

    private static long[] seekTable(List<SeekPiece> curve, int cylinders) {
        long[] table = new long[cylinders];
        int piece = 0;
        for (int d = 1; d < cylinders; d++) {
            while (piece + 1 < curve.size() && d >= curve.get(piece + 1).fromDistance()) {
                piece++;
            }
            SeekPiece p = curve.get(piece);
            double ms = p.constantMs() + p.sqrtMs() * Math.sqrt(d) + p.linearMs() * d;
            long ns = Math.round(ms * 1e6);
            require(ns >= 0, "the seek curve is negative at distance " + d);
            require(d == 1 || ns >= table[d - 1] - SEEK_JOIN_TOLERANCE_NS,
                "the seek curve must not fall with distance (it does at distance " + d + ")");
            table[d] = Math.max(ns, table[d - 1]);
        }
        return table;
    }

    private static double[] zoneTable(List<Zone> zones, int cylinders) {
        double[] table = new double[cylinders];
        int zone = 0;
        for (int c = 0; c < cylinders; c++) {
            while (zone + 1 < zones.size() && c >= zones.get(zone + 1).fromCylinder()) {
                zone++;
            }
            table[c] = 1e9 / zones.get(zone).transferBytesPerSecond();
        }
        return table;
    }

    /** The rows under {@code rows} of {@code measured} or of its {@code write} section. */
    private static List<MeasuredRow> measuredRows(JsonNode measured) {
        JsonNode rows = measured == null ? null : measured.get("rows");
        if (rows == null || rows.isNull()) {
            return List.of();
        }
        require(rows.isArray(), "'measured.rows' must be an array");
        List<MeasuredRow> result = new ArrayList<>();
        for (JsonNode row : rows) {
            int index = result.size();
            MeasuredRow parsed = new MeasuredRow(row.path("ioBytes").asInt(0), row.path("minMBps").asDouble(0),
                row.path("meanMBps").asDouble(0), row.path("maxMBps").asDouble(0));
            require(parsed.ioBytes() > 0 && parsed.minMBps() > 0 && parsed.meanMBps() > 0,
                "measured row " + index + " needs a positive 'ioBytes', 'minMBps' and 'meanMBps'");
            require(index == 0 || parsed.ioBytes() > result.get(index - 1).ioBytes(),
                "measured rows must be in increasing 'ioBytes' order");
            result.add(parsed);
        }
        return List.copyOf(result);
    }

    private static Measurement measurement(JsonNode measured) {
        if (measured == null || !measured.isObject()) {
            return null;
        }
        Instant at = null;
        if (measured.hasNonNull("at")) {
            try {
                at = Instant.parse(measured.get("at").asText());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'measured.at' must be a time like 2026-11-23T10:15:30Z, was '"
                    + measured.get("at").asText() + "'", e);
            }
        }
        return new Measurement(at, measured.path("device").asText(""), measured.path("deviceId").asText(""),
            measured.path("deviceBytes").asLong(0), measured.path("rotational").asBoolean(false),
            measured.path("accessMs").asDouble(Double.NaN),
            measured.path("transferBytesPerSecond").asDouble(Double.NaN));
    }

    private static WriteCurve writeCurve(JsonNode measured) {
        JsonNode write = measured == null ? null : measured.get("write");
        if (write == null || write.isNull()) {
            return null;
        }
        require(write.isObject(), "'measured.write' must be an object");
        WriteCurve curve = new WriteCurve(write.path("accessMs").asDouble(-1), write.path("accessMaxMs").asDouble(-1),
            write.path("transferBytesPerSecond").asDouble(0), measuredRows(write));
        require(curve.accessMs() >= 0 && curve.accessMaxMs() >= curve.accessMs(),
            "'measured.write' needs 'accessMs' >= 0 and 'accessMaxMs' >= 'accessMs'");
        require(curve.transferBytesPerSecond() > 0, "'measured.write' needs a positive 'transferBytesPerSecond'");
        require(!curve.rows().isEmpty(), "'measured.write' needs its 'rows'");
        return curve;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** One piece of the seek curve, in milliseconds, from a cylinder distance on. */
    record SeekPiece(Long fromDistance, Double constantMs, Double sqrtMs, Double linearMs) {
        SeekPiece {
            require(fromDistance != null, "a seek piece has no 'fromDistance'");
            constantMs = constantMs == null ? 0 : constantMs;
            sqrtMs = sqrtMs == null ? 0 : sqrtMs;
            linearMs = linearMs == null ? 0 : linearMs;
        }
    }

    /** A zone: the cylinders from {@code fromCylinder} to the next zone share a transfer rate. */
    record Zone(Integer fromCylinder, Double transferBytesPerSecond) {
        Zone {
            require(fromCylinder != null, "a zone has no 'fromCylinder'");
            require(transferBytesPerSecond != null, "a zone has no 'transferBytesPerSecond'");
        }
    }

    /**
     * One measured IO size: the throughput of its slowest, average and fastest read, in MB/s
     * (10^6 bytes a second), as {@code rondo profile} writes it under {@code measured.rows}.
     */
    public record MeasuredRow(int ioBytes, double minMBps, double meanMBps, double maxMBps) {
    }

    /**
     * The write curve of a measured profile: the fitted service time of a write made durable,
     * {@code accessMs + s / transferBytesPerSecond}, {@code accessMaxMs} the access time with which
     * that line bounds the slowest write measured, and the rows measured (their MB/s are writes').
     */
    public record WriteCurve(double accessMs, double accessMaxMs, double transferBytesPerSecond,
                             List<MeasuredRow> rows) {
    }

    /**
     * What a measured profile's {@code measured} section says of the device and the fit.
     *
     * @param at                     when it was measured, or null if the file does not say
     * @param device                 the device's name ({@code vda}), or empty
     * @param deviceId               the device's {@code MAJ:MIN}, or empty
     * @param deviceBytes            the device's size, or 0 if the file does not say
     * @param rotational             whether the kernel called the device rotational
     * @param accessMs               the fitted access time {@code a}, or NaN
     * @param transferBytesPerSecond the fitted transfer rate {@code R}, or NaN
     */
    public record Measurement(Instant at, String device, String deviceId, long deviceBytes, boolean rotational,
                              double accessMs, double transferBytesPerSecond) {
    }

    /**
     * The file format. {@code measured}, written by {@code rondo profile}, holds the measurements a
     * profile was fitted to (throughput against IO size, papers/000 Figure 3): kept for people and
     * charts and for admission control's min and mean curves ({@link #measuredRows()}), never used
     * by the scheduler's per-request estimates.
     */
    record Json(String name, String description, Long capacityBytes, Integer cylinders, Double revolutionMs,
                List<SeekPiece> seekCurve, List<Zone> zones, JsonNode measured) {
        Json {
            require(name != null && !name.isBlank(), "'name' is missing");
            require(capacityBytes != null, "'capacityBytes' is missing");
            require(cylinders != null, "'cylinders' is missing");
            require(revolutionMs != null, "'revolutionMs' is missing");
        }
    }
}
