package io.rondo.server.stream;

import io.rondo.client.protocol.ClientProfile;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.admission.DiskDemand;
import io.rondo.scheduler.admission.StreamDemand;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** What a stream asks of the server and of its client, judged before ACCEPT. */
final class StreamAdmission {

    private StreamAdmission() {
    }

    /**
     * Why a client's declared profile cannot take this object (papers/004 Section 2.3), or null if
     * it can: its buffer must hold two of the largest fragments (the one playing and the one
     * arriving) and the largest run a start at a keyframe sends at once, and its rate must carry
     * the largest fragment within one round.
     */
    static String unfit(ClientProfile declared, MediaIndex media, long roundNs) {
        long peak = media.peakFragmentBytes();
        long start = media.peakStartBytes();
        if (declared.bufferBytes() < 2 * peak) {
            return "the client's buffer of " + declared.bufferBytes() + " bytes cannot hold two of this object's "
                + "largest fragments (" + peak + " bytes each)";
        }
        if (declared.bufferBytes() < start) {
            return "the client's buffer of " + declared.bufferBytes() + " bytes cannot hold the " + start + " bytes "
                + "from this object's keyframe to the next, which a start or a seek sends at once";
        }
        double perRound = declared.maxReceiveBytesPerSecond() * (roundNs / 1e9);
        if (perRound < peak) {
            return "the client's rate of " + declared.maxReceiveBytesPerSecond() + " bytes/s cannot carry this "
                + "object's largest fragment (" + peak + " bytes) within one round";
        }
        return null;
    }

    /**
     * A stream's demand per disk (papers/000 Section 2.3): per round, the mean and the largest
     * fragment it reads there, from the media's demand per file of its placement.
     */
    static StreamDemand demand(MediaObject object, long streamId) {
        Map<String, DiskDemand> perDisk = new HashMap<>();
        Map<String, Integer> counts = new HashMap<>();
        object.media().demandByFile().forEach((file, need) -> {
            String disk = object.placement().files().get(file).disk();
            perDisk.merge(disk, new DiskDemand(need.meanFragmentBytes(), need.peakFragmentBytes()), (a, b) -> {
                int before = counts.get(disk);
                long mean = (a.averageBytesPerRound() * before + b.averageBytesPerRound() * need.fragments())
                    / (before + need.fragments());
                return new DiskDemand(Math.max(1, mean), Math.max(a.peakBytesPerRound(), b.peakBytesPerRound()));
            });
            counts.merge(disk, need.fragments(), Integer::sum);
        });
        return new StreamDemand(streamId, perDisk, Duration.ofNanos(object.media().durationNs()));
    }
}
