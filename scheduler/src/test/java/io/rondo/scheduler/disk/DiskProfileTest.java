package io.rondo.scheduler.disk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Disk profiles: the paper's disk reproduces papers/001 Table 1, and a bad profile file is refused with the reason. */
class DiskProfileTest {

    private static final long MICROSECOND = 1_000;

    private static final String CYLINDERS = "\"cylinders\": 10,";
    private static final String CURVE = "[ { \"fromDistance\": 1, \"constantMs\": 1.0, \"sqrtMs\": 0.0, "
        + "\"linearMs\": 0.5 } ]";

    @TempDir
    Path dir;

    private final DiskProfile paper = DiskProfile.paperDisk();

    private long seekOverCylinders(int distance) {
        return paper.seekNs(paper.positionOfCylinder(0), paper.positionOfCylinder(distance));
    }

    private static long ms(double milliseconds) {
        return Math.round(milliseconds * 1e6);
    }

    /** Table 1's seek curve: 1.867 + 0.1315 sqrt(d) ms below 1344 cylinders, 3.8635 + 0.0021 d ms from there on. */
    @Test
    void paperDiskSeeksFollowTable1() {
        assertEquals(ms(1.867 + 0.1315), seekOverCylinders(1), MICROSECOND);
        assertEquals(ms(1.867 + 0.1315 * 10), seekOverCylinders(100), MICROSECOND);
        assertEquals(ms(3.8635 + 0.0021 * 1344), seekOverCylinders(1344), MICROSECOND);
        assertEquals(ms(3.8635 + 0.0021 * 5000), seekOverCylinders(5000), MICROSECOND);
        assertEquals(ms(3.8635 + 0.0021 * 6719), paper.maxSeekNs(), MICROSECOND);
        assertEquals(paper.maxSeekNs(), seekOverCylinders(6719));
        assertEquals(paper.seekNs(paper.positionOfCylinder(4_000), paper.positionOfCylinder(1_000)),
            seekOverCylinders(3_000), "a seek costs the same in either direction");
    }

    @Test
    void aSeekWithinOneCylinderCostsNothing() {
        assertEquals(0, seekOverCylinders(0));
        assertEquals(0, paper.seekNs(1_200_000, 1_799_999), "both on cylinder 2");
        assertEquals(2, paper.cylinderOf(1_799_999));
    }

    @Test
    void paperDiskRotatesAndTransfersAsTable1Says() {
        assertEquals(8_340_000, paper.worstCaseRotationNs());
        assertEquals(800_000 / 8.79e6 * 1e9, paper.transferNs(0, 800_000), MICROSECOND);
        assertEquals(paper.transferNs(0, 800_000), paper.transferNs(paper.positionOfCylinder(6_000), 800_000),
            "one zone: the same rate everywhere");
        assertEquals(6_720, paper.cylinders());
        assertEquals(6_719, paper.cylinderOf(paper.capacityBytes() - 1));
        assertEquals(DiskProfile.PAPER_DISK, paper.name());
    }

    @Test
    void thePaperDiskWasNotMeasured() {
        assertTrue(paper.measurement().isEmpty());
        assertTrue(paper.measuredRows().isEmpty());
    }

    /** A measured profile says where and when; a file without the device's size says 0 (unknown). */
    @Test
    void aMeasuredProfileSaysWhereAndWhen() throws IOException {
        DiskProfile measured = DiskProfile.load(write("m.json", profile(CYLINDERS, CURVE, ", \"measured\": {"
            + " \"at\": \"2026-11-23T10:15:30Z\", \"device\": \"sda\", \"deviceId\": \"8:0\","
            + " \"rotational\": true, \"accessMs\": 0.2, \"transferBytesPerSecond\": 180000000 }")));

        assertEquals(new DiskProfile.Measurement(Instant.parse("2026-11-23T10:15:30Z"), "sda", "8:0", 0,
            true, 0.2, 180e6), measured.measurement().orElseThrow());
    }

    /** The writes a profile timed, under measured.write; a profile measured before writes were timed has none. */
    @Test
    void aMeasuredProfileHoldsItsWriteCurve() throws IOException {
        String rows = " \"rows\": [ { \"ioBytes\": 4096, \"minMBps\": 0.2, \"meanMBps\": 0.25, \"maxMBps\": 0.5 } ]";
        DiskProfile measured = DiskProfile.load(write("w.json", profile(CYLINDERS, CURVE, ", \"measured\": {"
            + " \"write\": { \"accessMs\": 1.5, \"accessMaxMs\": 2.5, \"transferBytesPerSecond\": 40000000,"
            + rows + " } }")));

        assertEquals(new DiskProfile.WriteCurve(1.5, 2.5, 40e6, List.of(new DiskProfile.MeasuredRow(4096, 0.2, 0.25,
            0.5))), measured.writeCurve().orElseThrow());
        assertTrue(measured.measuredRows().isEmpty(), "the read rows are its own");
        assertTrue(DiskProfile.load(write("r.json", profile(CYLINDERS, CURVE, ", \"measured\": {"
            + " \"accessMs\": 0.2 }"))).writeCurve().isEmpty());
        assertTrue(paper.writeCurve().isEmpty());

        assertRefused("no-rate.json", profile(CYLINDERS, CURVE, ", \"measured\": { \"write\": { \"accessMs\": 1,"
            + " \"accessMaxMs\": 2," + rows + " } }"), "'measured.write' needs a positive 'transferBytesPerSecond'");
        assertRefused("no-rows.json", profile(CYLINDERS, CURVE, ", \"measured\": { \"write\": { \"accessMs\": 1,"
            + " \"accessMaxMs\": 2, \"transferBytesPerSecond\": 1000 } }"), "'measured.write' needs its 'rows'");
        assertRefused("max-under.json", profile(CYLINDERS, CURVE, ", \"measured\": { \"write\": { \"accessMs\": 3,"
            + " \"accessMaxMs\": 2, \"transferBytesPerSecond\": 1000," + rows + " } }"), "'accessMaxMs' >= 'accessMs'");
    }

    @Test
    void aBadMeasurementTimeIsNamed() throws IOException {
        Path file = write("bad-at.json", profile(CYLINDERS, CURVE, ", \"measured\": { \"at\": \"yesterday\" }"));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskProfile.load(file));

        assertTrue(e.getMessage().contains("'measured.at' must be a time like 2026-11-23T10:15:30Z, was 'yesterday'"),
            e.getMessage());
    }

    /** The file under config/disks and the copy on the classpath are the same disk. */
    @Test
    void theShippedFileIsTheBuiltInProfile() {
        Path file = Path.of(System.getProperty("rondo.config.dir", "../config"), "disks", "nerjes-1999.json");
        DiskProfile loaded = DiskProfile.load(file);
        DiskProfile resolved = DiskProfile.resolve(file.toString());

        for (DiskProfile profile : new DiskProfile[] {loaded, resolved, DiskProfile.resolve("nerjes-1999")}) {
            assertEquals(paper.capacityBytes(), profile.capacityBytes());
            assertEquals(paper.maxSeekNs(), profile.maxSeekNs());
            assertEquals(seekOverCylinders(1344), profile.seekNs(0, profile.positionOfCylinder(1344)));
            assertEquals(paper.worstCaseRotationNs(), profile.worstCaseRotationNs());
        }
    }

    private Path write(String name, String json) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    private static String profile(String cylinders, String seekCurve, String extra) {
        return "{ \"name\": \"small\", \"capacityBytes\": 10000, " + cylinders + " \"revolutionMs\": 4.0,"
            + " \"seekCurve\": " + seekCurve + ","
            + " \"zones\": [ { \"fromCylinder\": 0, \"transferBytesPerSecond\": 1000000 },"
            + " { \"fromCylinder\": 5, \"transferBytesPerSecond\": 2000000 } ]" + extra + " }";
    }

    /** A valid profile of two zones: transfers at each zone's rate, linear byte-to-cylinder mapping. */
    @Test
    void loadsAValidProfileWithZones() throws IOException {
        DiskProfile small = DiskProfile.load(write("small.json", profile(CYLINDERS, CURVE, "")));

        assertEquals("small", small.name());
        assertEquals(1_000_000, small.transferNs(0, 1_000), "1 MB/s in zone 0");
        assertEquals(500_000, small.transferNs(6_000, 1_000), "2 MB/s from cylinder 5");
        assertEquals(ms(1.0 + 0.5 * 3), small.seekNs(1_000, 4_500));
        assertEquals(ms(1.0 + 0.5 * 9), small.maxSeekNs());
        assertEquals(4_000_000, small.worstCaseRotationNs());
    }

    /** File names say nothing of the problem, so a message passes only if it says what is wrong itself. */
    private void assertRefused(String fileName, String json, String problem) throws IOException {
        Path file = write(fileName, json);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskProfile.load(file));
        assertTrue(e.getMessage().contains(file.toString()), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains(problem), "says what is wrong: " + e.getMessage());
    }

    /** A missing number must be named, not reported as a null that Jackson could not map. */
    @Test
    void refusesAMissingNumberNamingIt() throws IOException {
        assertRefused("disk.json", profile("", CURVE, ""), "cylinders");
    }

    @Test
    void refusesAMissingListOrName() throws IOException {
        assertRefused("first.json", "{ \"name\": \"small\", \"capacityBytes\": 10000, \"cylinders\": 10,"
            + " \"revolutionMs\": 4.0, \"zones\": [ { \"fromCylinder\": 0, \"transferBytesPerSecond\": 1 } ] }",
            "'seekCurve' needs at least one piece");
        assertRefused("second.json", profile(CYLINDERS, CURVE, "").replace("\"name\": \"small\",", ""),
            "'name' is missing");
    }

    @Test
    void refusesNegativeCylinders() throws IOException {
        assertRefused("disk.json", profile("\"cylinders\": -5,", CURVE, ""),
            "'cylinders' must be positive, was -5");
    }

    @Test
    void refusesASeekCurveThatFallsWithDistance() throws IOException {
        String falling = "[ { \"fromDistance\": 1, \"constantMs\": 5.0, \"sqrtMs\": 0.0, \"linearMs\": 0.0 },"
            + " { \"fromDistance\": 4, \"constantMs\": 1.0, \"sqrtMs\": 0.0, \"linearMs\": 0.0 } ]";
        assertRefused("disk.json", profile(CYLINDERS, falling, ""),
            "the seek curve must not fall with distance (it does at distance 4)");
    }

    @Test
    void refusesAnUnknownField() throws IOException {
        assertRefused("disk.json", profile(CYLINDERS, CURVE, ", \"spindleRpm\": 7200"), "spindleRpm");
    }

    @Test
    void refusesAFileThatIsNotJson() throws IOException {
        assertRefused("disk.json", "cylinders = 10\n", "is not valid");
    }

    @Test
    void refusesAFileThatIsNotThere() {
        Path missing = dir.resolve("missing.json");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskProfile.load(missing));
        assertTrue(e.getMessage().contains("cannot read disk profile " + missing), e.getMessage());
    }

    /** An unknown name is neither a file nor a built-in profile; the message lists the built-ins. */
    @Test
    void resolvingAnUnknownNameListsTheBuiltIns() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> DiskProfile.resolve("quantum-2001"));
        assertTrue(e.getMessage().contains("'quantum-2001'"), e.getMessage());
        assertTrue(e.getMessage().contains("built-in profiles: [nerjes-1999]"), e.getMessage());
    }

    /** A path that names no file says so, rather than looking for a built-in profile of that name. */
    @Test
    void resolvingAMissingFileSaysTheFileIsMissing() {
        String missing = dir.resolve("measured.json").toString();

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskProfile.resolve(missing));

        assertEquals("the disk profile file " + missing + " does not exist; built-in profiles: [nerjes-1999]",
            e.getMessage());
    }
}
