package io.rondo.scheduler.device;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rondo.scheduler.device.DiskProfiler.Fit;
import io.rondo.scheduler.device.DiskProfiler.Result;
import io.rondo.scheduler.device.DiskProfiler.Row;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * A profiler run written as the profile {@code DiskProfile} loads: the fitted line as a disk of
 * one zone, and what was measured, with a description a person can read.
 */
final class ProfileJson {

    private static final int CYLINDERS = 1000;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ProfileJson() {
    }

    /** {@code result} as {@link Result#profileJson()} describes it. */
    static String of(Result result) {
        Fit fit = result.fit();
        DeviceInfo device = result.device();
        ObjectNode root = JSON.createObjectNode();
        root.put("name", result.profileName());
        root.put("description", description(result));
        root.put("capacityBytes", result.fileBytes());
        root.put("cylinders", CYLINDERS);
        root.put("revolutionMs", round(Math.max(fit.accessMaxMs() - fit.accessMs(), 0.001)));
        ObjectNode seek = root.putArray("seekCurve").addObject();
        seek.put("fromDistance", 1);
        seek.put("constantMs", round(fit.accessMs()));
        seek.put("sqrtMs", 0.0);
        seek.put("linearMs", 0.0);
        ObjectNode zone = root.putArray("zones").addObject();
        zone.put("fromCylinder", 0);
        zone.put("transferBytesPerSecond", Math.round(fit.transferBytesPerSecond()));
        ObjectNode measured = root.putObject("measured");
        measured.put("at", result.measuredAt().toString());
        measured.put("device", device.name());
        measured.put("deviceId", device.id());
        measured.put("deviceBytes", device.sizeBytes());
        measured.put("rotational", device.rotational());
        measured.put("dir", result.dir().toString());
        measured.put("reader", result.reader());
        measured.put("testFileBytes", result.fileBytes());
        measured.put("accessMs", round(fit.accessMs()));
        measured.put("accessMaxMs", round(fit.accessMaxMs()));
        measured.put("transferBytesPerSecond", Math.round(fit.transferBytesPerSecond()));
        putRows(measured, result.rows());
        if (result.writeFit() != null) {
            ObjectNode write = measured.putObject("write");
            write.put("accessMs", round(result.writeFit().accessMs()));
            write.put("accessMaxMs", round(result.writeFit().accessMaxMs()));
            write.put("transferBytesPerSecond", Math.round(result.writeFit().transferBytesPerSecond()));
            putRows(write, result.writeRows());
        }
        try {
            return JSON.writeValueAsString(root) + System.lineSeparator();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
    }

    /** {@code rows} under {@code rows}; a row's {@code reads} counts its IOs, writes in a write row. */
    private static void putRows(ObjectNode parent, List<Row> rows) {
        ArrayNode rowsNode = parent.putArray("rows");
        for (Row row : rows) {
            ObjectNode node = rowsNode.addObject();
            node.put("ioBytes", row.ioBytes());
            node.put("reads", row.reads());
            node.put("minMBps", round(row.minMBps()));
            node.put("meanMBps", round(row.meanMBps()));
            node.put("maxMBps", round(row.maxMBps()));
            node.put("meanMs", round(row.meanMs()));
            node.put("maxMs", round(row.maxMs()));
            node.put("meanAccessMs", round(row.meanAccessMs()));
            node.put("maxAccessMs", round(row.maxAccessMs()));
        }
    }

    private static String description(Result result) {
        List<Row> rows = result.rows();
        DeviceInfo device = result.device();
        Fit fit = result.fit();
        int reads = rows.stream().mapToInt(Row::reads).sum();
        String text = String.format(Locale.ROOT, "Measured by 'rondo profile' at %s on %s (%s, %s): %d random "
                + "O_DIRECT reads of %s to %s (%s reader) over a %d MiB test file in %s. Service time fitted "
                + "as t(s) = a + s/R by least squares on each size's mean time: a = %.3f ms, R = %.1f MiB/s. Any "
                + "move costs a; revolutionMs is the slowest read's extra access time (a_max - a), so seek + "
                + "rotation + transfer bounds every read measured. Cylinders are bands of the test file.",
            result.measuredAt(), device.name(), device.id(), device.rotational() ? "rotational" : "non-rotational",
            reads, size(rows.get(0).ioBytes()), size(rows.get(rows.size() - 1).ioBytes()), result.reader(),
            result.fileBytes() >> 20, result.dir(), fit.accessMs(), fit.transferBytesPerSecond() / (1 << 20));
        Fit writes = result.writeFit();
        if (writes == null) {
            return text;
        }
        return text + String.format(Locale.ROOT, " Writes, under measured.write: %d random O_DIRECT writes, each "
                + "followed by fdatasync, into a scratch file reserved ahead (fallocate where the reader can), "
                + "fitted the same way: a = %.3f ms, R = %.1f MiB/s.",
            result.writeRows().stream().mapToInt(Row::reads).sum(), writes.accessMs(),
            writes.transferBytesPerSecond() / (1 << 20));
    }

    private static String size(int bytes) {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB";
    }

    private static double round(double value) {
        return Math.round(value * 1e6) / 1e6;
    }
}
