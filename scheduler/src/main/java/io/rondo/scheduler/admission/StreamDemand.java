package io.rondo.scheduler.admission;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a new stream asks of the server: per disk it touches, its fragment per round on average
 * and at peak (papers/001 Section 1.1: a fragment is one round of display, so its size is the
 * bit rate times the round length); and, if known, how long it will play, so that a rejected
 * client can be told when room is likely to come free.
 *
 * @param streamId the stream's identity, unique among admitted streams
 * @param disks    the disks it reads from, by name, with its demand on each; at least one
 * @param duration how long the stream will play from now, or {@code null} if unknown (a live
 *                 source, or a client that may pause)
 * @param buffers  how its buffer memory is reserved, by what its client can do
 */
public record StreamDemand(long streamId, Map<String, DiskDemand> disks, Duration duration, ClientBuffers buffers) {

    public StreamDemand {
        if (buffers == null) {
            throw new IllegalArgumentException("stream " + streamId + " has no buffer mode");
        }
        if (disks == null || disks.isEmpty()) {
            throw new IllegalArgumentException("stream " + streamId + " touches no disk");
        }
        if (duration != null && duration.isNegative()) {
            throw new IllegalArgumentException("stream " + streamId + " has a negative duration " + duration);
        }
        // Sorted, so that when several disks are short the same one is named every time.
        disks = Collections.unmodifiableMap(new TreeMap<>(disks));
    }

    /** A double-buffered stream. */
    public StreamDemand(long streamId, Map<String, DiskDemand> disks, Duration duration) {
        this(streamId, disks, duration, ClientBuffers.DOUBLE);
    }

    /** A stream of unknown duration on one disk. */
    public static StreamDemand onDisk(long streamId, String disk, DiskDemand demand) {
        return new StreamDemand(streamId, Map.of(disk, demand), null);
    }

    /**
     * A stream declared by its bit rates, striped over {@code disks}. Each disk is charged a
     * whole fragment per round, {@code bitsPerSecond / 8 * round}: with coarse-grained striping
     * a stream reads from one disk per round, but which disk in which round depends on its phase
     * against the others', so every disk it touches must be ready to serve it in any round.
     */
    public static StreamDemand ofBitRates(long streamId, double averageBitsPerSecond, double peakBitsPerSecond,
                                          Duration round, Collection<String> disks, Duration duration) {
        if (!(averageBitsPerSecond >= 0) || !(peakBitsPerSecond >= 0) || Double.isInfinite(peakBitsPerSecond)) {
            throw new IllegalArgumentException("bit rates must be finite and not negative, were "
                + averageBitsPerSecond + " and " + peakBitsPerSecond);
        }
        double seconds = round.toNanos() / 1e9;
        DiskDemand demand = new DiskDemand((long) Math.ceil(averageBitsPerSecond / 8 * seconds),
            (long) Math.ceil(peakBitsPerSecond / 8 * seconds));
        Map<String, DiskDemand> byDisk = new TreeMap<>();
        for (String disk : disks) {
            byDisk.put(disk, demand);
        }
        return new StreamDemand(streamId, byDisk, duration);
    }

    /**
     * A recording on {@code disk} declared by its peak bit rate: each round it writes one fragment
     * of at most {@code peakBitsPerSecond / 8 * round}, charged at that peak on the disk's write
     * curve, beside the read streams in the same round. Its duration is unknown (a live source).
     */
    public static StreamDemand recording(long streamId, double peakBitsPerSecond, Duration round, String disk) {
        if (!(peakBitsPerSecond > 0) || Double.isInfinite(peakBitsPerSecond)) {
            throw new IllegalArgumentException("a recording's peak bit rate must be finite and positive, was "
                + peakBitsPerSecond);
        }
        long peakBytes = (long) Math.ceil(peakBitsPerSecond / 8 * (round.toNanos() / 1e9));
        return onDisk(streamId, disk, DiskDemand.recording(peakBytes));
    }

    /** The same demand with a known duration. */
    public StreamDemand withDuration(Duration newDuration) {
        return new StreamDemand(streamId, disks, newDuration, buffers);
    }

    /** The same demand with its buffers reserved as {@code newBuffers} says. */
    public StreamDemand withBuffers(ClientBuffers newBuffers) {
        return new StreamDemand(streamId, disks, duration, newBuffers);
    }

    /** How long the stream will play, when known. */
    public Optional<Duration> knownDuration() {
        return Optional.ofNullable(duration);
    }

    /**
     * The largest fragment it reads in any round. A stream reads one fragment per round (each
     * fragment lies on one disk), so double buffering holds two of these at most.
     */
    public long peakFragmentBytes() {
        long peak = 0;
        for (DiskDemand demand : disks.values()) {
            peak = Math.max(peak, demand.peakBytesPerRound());
        }
        return peak;
    }

    /** Whether the stream writes (a recording), which reads every round whatever its cadence. */
    public boolean writes() {
        return disks.values().stream().anyMatch(DiskDemand::write);
    }

    /**
     * The demand of the same stream reading {@code fragments} fragments in one IO, once every
     * {@code fragments} rounds (papers/003 Section 2.1: a longer time cycle, or a combined stream).
     */
    public StreamDemand perRead(int fragments) {
        if (fragments == 1) {
            return this;
        }
        Map<String, DiskDemand> scaled = new TreeMap<>();
        disks.forEach((disk, demand) -> scaled.put(disk, demand.times(fragments)));
        return new StreamDemand(streamId, scaled, duration, buffers.times(fragments));
    }
}
