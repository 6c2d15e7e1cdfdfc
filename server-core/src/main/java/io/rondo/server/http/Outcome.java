package io.rondo.server.http;

import java.util.List;

/**
 * How to answer a GET or HEAD once its preconditions and ranges are evaluated.
 *
 * @param status  200, 206, 304, 412 or 416
 * @param ranges  for 206 the ranges to send (one: a single part; several: multipart/byteranges), in
 *                the order asked, or ascending once overlaps are coalesced; empty otherwise
 */
public record Outcome(int status, List<ByteRangeSpec> ranges) {

    public Outcome {
        ranges = List.copyOf(ranges);
    }

    static Outcome of(int status) {
        return new Outcome(status, List.of());
    }

    /** True if the whole representation is sent. */
    public boolean whole() {
        return status == 200;
    }

    /** True if the answer carries a multipart/byteranges body. */
    public boolean multipart() {
        return status == 206 && ranges.size() > 1;
    }
}
