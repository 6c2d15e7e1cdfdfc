package io.rondo.scheduler.admission;

/**
 * An admitted stream as stream combination sees it: what one fragment of it asks of its disks,
 * and how often it reads.
 *
 * @param demand  what it reads per fragment, per disk
 * @param cadence how often it reads
 */
public record StreamCadence(StreamDemand demand, Cadence cadence) {

    /** The stream. */
    public long streamId() {
        return demand.streamId();
    }
}
