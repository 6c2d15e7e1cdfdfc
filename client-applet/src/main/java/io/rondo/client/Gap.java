package io.rondo.client;

import java.time.Duration;
import java.time.Instant;

/**
 * A stream's connection was lost and picked up again ({@link Reconnect}): what its reader missed.
 *
 * @param lostAt       when the loss was noticed, on the reconnect's clock
 * @param length       the wall time from the loss to the first DATA after it
 * @param lastFragment the index of the last fragment received before the loss; -1 if none was
 * @param nextFragment the index of the first fragment received after it
 * @param cause        why the connection was lost, for a person
 */
public record Gap(Instant lostAt, Duration length, long lastFragment, long nextFragment, String cause) {

    /** How many fragments the reader never got: 0 when the stream went on at the next one. */
    public long fragmentsSkipped() {
        return Math.max(0, nextFragment - lastFragment - 1);
    }
}
