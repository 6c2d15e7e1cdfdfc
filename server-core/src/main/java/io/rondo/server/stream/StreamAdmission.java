package io.rondo.server.stream;

import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.ingest.Directory;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.admission.AdmissionDecision;
import io.rondo.scheduler.admission.AdmissionDecision.Resource;
import io.rondo.scheduler.admission.Cadence;
import io.rondo.scheduler.admission.DiskDemand;
import io.rondo.scheduler.admission.StreamDemand;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.StreamEndedException;
import io.rondo.server.config.BufferSettings;
import io.rondo.server.config.ClientBufferUse;
import io.rondo.server.live.LiveRecording;
import io.rondo.server.live.LiveRecordings;
import io.rondo.server.runtime.DiskRuntime;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a stream asks of the server and of its client, judged before ACCEPT (papers/000 Section
 * 2.3, papers/004 Section 2.3): an OPEN names an object that exists, is continuous and holds the
 * start; the client's declared profile can take it; admission control finds the disk time, the
 * buffer memory and the network for it; and the stream's fragment buffers are reserved, as its
 * client's declared buffer and rate allow ({@link ClientBuffering}: two of its own, one, or none
 * and a part in a shared account that admission sizes). Every decision goes to the admission log;
 * what an admitted stream holds is given back when it ends ({@link #release}). A drained server
 * ({@link Drain}) admits nothing, with a retry-after. Thread-safe: every
 * stream's event loop asks; the shared accounts are sized under one lock, so the pool's follow
 * admission's in the order streams come and go.
 */
final class StreamAdmission {

    /** What an OPEN is answered with. */
    sealed interface Answer permits Admitted, Refused {
    }

    /**
     * The stream may start: its id, and its object's lease, held until it ends.
     *
     * @param id        the stream id ACCEPT gives
     * @param lease     the object, open until {@link #release}; null while it is being admitted
     * @param buffering how its buffers are reserved, and so whether its fragments are guarded
     * @param cadence   the rounds it reads in, as admission charged it
     */
    record Admitted(long id, Directory.Lease lease, ClientBuffering buffering, Cadence cadence) implements Answer {
    }

    /**
     * The stream may not start: what REJECT tells the client.
     *
     * @param reason            the resource or check that refused it
     * @param retryAfterSeconds when to try again; 0 for never
     * @param message           why, for a person
     */
    record Refused(RejectReason reason, int retryAfterSeconds, String message) implements Answer {
    }

    private final Directory directory;
    private final DiskRuntime disks;
    private final AdmissionController admission;
    private final StreamRegistry registry;
    private final LiveRecordings live;
    private final ClientBufferUse clientBuffers;
    private final Drain drain;
    private final Object sharing = new Object();

    StreamAdmission(Directory directory, DiskRuntime disks, AdmissionController admission, StreamRegistry registry) {
        this(directory, disks, admission, registry, null, BufferSettings.DEFAULT_CLIENT_BUFFERS, new Drain());
    }

    /**
     * @param live          the recordings being written, whose viewers are judged by their declared rate; null
     *                      for none
     * @param clientBuffers {@code buffers.clientBuffers}: which modes a client may get
     * @param drain         whether the server takes new streams
     */
    StreamAdmission(Directory directory, DiskRuntime disks, AdmissionController admission, StreamRegistry registry,
                    LiveRecordings live, ClientBufferUse clientBuffers, Drain drain) {
        this.directory = directory;
        this.disks = disks;
        this.admission = admission;
        this.registry = registry;
        this.live = live;
        this.clientBuffers = clientBuffers;
        this.drain = drain;
    }

    /** The recording being written as object {@code id}, if it is one. */
    Optional<LiveRecording> recording(long id) {
        return live == null ? Optional.empty() : live.byId(id);
    }

    /** Judges an OPEN from {@code client}: admitted with its lease and buffers, or refused with nothing held. */
    Answer open(Open open, String client) {
        return open(open, client, clientBuffers);
    }

    /**
     * Judges an OPEN as {@link #open(Open, String)} does, with {@code use} the buffer modes the
     * stream may get: an HLS session, whose client declares nothing, keeps two buffers of its own.
     */
    Answer open(Open open, String client, ClientBufferUse use) {
        Optional<Directory.Lease> found;
        try {
            found = directory.open(open.objectName());
        } catch (IllegalArgumentException e) {
            found = Optional.empty();
        }
        if (found.isEmpty()) {
            return new Refused(RejectReason.NOT_FOUND, 0, "no object is named " + open.objectName());
        }
        Answer answer = judge(open, found.get(), client, use);
        if (answer instanceof Refused) {
            found.get().close();
        }
        return answer;
    }

    private Answer judge(Open open, Directory.Lease lease, String client, ClientBufferUse use) {
        MediaObject object = lease.object();
        MediaIndex media = object.media();
        if (media == null) {
            return new Refused(RejectReason.NOT_CONTINUOUS, 0, object.name() + " is discrete data: fetch it over HTTP");
        }
        Optional<LiveRecording> recording = recording(object.id());
        long peak = recording.map(r -> 2 * r.peakBytesPerRound()).orElse(media.peakFragmentBytes());
        long startNs = open.fromLive() ? Math.max(0, media.durationNs() - open.startNs()) : open.startNs();
        if (recording.isEmpty() && (startNs < 0 || startNs >= media.durationNs() && media.durationNs() > 0)) {
            return new Refused(RejectReason.START_OUT_OF_RANGE, 0, "start " + startNs
                + " ns is outside the media (" + media.durationNs() + " ns)");
        }
        String unfit = unfit(open.profile(), peak, recording.isPresent() ? peak : media.peakStartBytes(),
            disks.roundNs());
        if (unfit != null) {
            registry.log().refused(object.name(), client, "client-profile", 0, unfit);
            return new Refused(RejectReason.CLIENT_PROFILE, 0, unfit);
        }
        long id = registry.nextId();
        ClientBuffering buffering = recording.isPresent() ? ClientBuffering.DOUBLE
            : ClientBuffering.choose(use, open.profile(), peak, readSizes(media), disks.roundNs());
        StreamDemand demand = recording.map(r -> StreamDemand.onDisk(id, r.disk(),
            new DiskDemand(r.peakBytesPerRound(), 2 * r.peakBytesPerRound()))).orElseGet(() -> demand(object, id))
            .withBuffers(buffering.buffers());
        Answer answer = admit(demand, object.name(), client, peak, buffering);
        if (answer instanceof Refused) {
            return answer;
        }
        registry.log().admitted(id, object.name(), client);
        registry.count(buffering.mode());
        return new Admitted(id, lease, buffering, ((Admitted) answer).cadence());
    }

    /** The sizes the media's reads read: the least fragment lent each buffer size class its fragments use. */
    private static List<Long> readSizes(MediaIndex media) {
        Map<Integer, Long> leastByClass = new TreeMap<>();
        for (Fragment fragment : media.fragments()) {
            long bytes = Math.max(1, fragment.length());
            leastByClass.merge(BufferPool.classCapacity((int) Math.min(1 << 30, bytes + 2L * DiskIo.ALIGNMENT)), bytes,
                Math::min);
        }
        return leastByClass.isEmpty() ? List.of(1L) : List.copyOf(leastByClass.values());
    }

    /**
     * Admits a recording of up to {@code peakBitsPerSecond} on {@code disk} as a write stream
     * (papers/000 Section 2.3: writes admitted with reads): one round's media at the declared peak
     * written each round, charged on the disk's write curve, and its fragment buffers reserved.
     * Returns its stream id, or why it is refused.
     */
    PublishAnswer publish(String name, String disk, long peakBitsPerSecond, String client) {
        long perRound = Math.max(1, (long) (peakBitsPerSecond / 8.0 * disks.roundNs() / 1e9));
        long id = registry.nextId();
        Answer answer = admit(StreamDemand.recording(id, peakBitsPerSecond, Duration.ofNanos(disks.roundNs()), disk),
            name, client, 2 * perRound, ClientBuffering.DOUBLE);
        if (answer instanceof Refused no) {
            return new PublishAnswer(0, no);
        }
        registry.log().admitted(id, name, client);
        return new PublishAnswer(id, null);
    }

    /** A publisher's admission: its stream id, or the refusal. */
    record PublishAnswer(long id, Refused refused) {
    }

    /** A recording ended: its disk time and buffers are given back. */
    void releasePublisher(long id, String name, String client, String why) {
        admission.release(id);
        disks.buffers().releaseStream(id);
        registry.log().ended(id, name, client, why);
    }

    /**
     * Admission control, then the stream's fragment buffers as {@code buffering} reserves them, and
     * its shared account resized to what admission now bounds it by: null if all are had, else
     * the refusal, which for buffer memory says which mode the client got and how to get a better.
     */
    private Answer admit(StreamDemand demand, String name, String client, long peakFragmentBytes,
                         ClientBuffering buffering) {
        String drained = drain.reason();
        if (drained != null) {
            String why = drained + ": it admits no new stream; its other replicas do";
            registry.log().refused(name, client, "draining", Drain.RETRY_AFTER_SECONDS, why);
            return new Refused(RejectReason.DISK_TIME, Drain.RETRY_AFTER_SECONDS, why);
        }
        long id = demand.streamId();
        String mode = "; this stream was charged as " + buffering.describe();
        synchronized (sharing) {
            AdmissionDecision decision = admission.admit(demand);
            if (decision instanceof AdmissionDecision.Reject no) {
                String why = no.resource() == Resource.BUFFER_MEMORY ? no.reason() + mode : no.reason();
                registry.log().refused(name, client, no.resource().label(), no.retryAfterSeconds(), why);
                return new Refused(switch (no.resource()) {
                    case DISK_TIME, MEASURING -> RejectReason.DISK_TIME;
                    case BUFFER_MEMORY -> RejectReason.BUFFER_MEMORY;
                    case NETWORK, DELIVERY -> RejectReason.NETWORK;
                }, (int) Math.min(Integer.MAX_VALUE, no.retryAfterSeconds()), why);
            }
            Cadence cadence = ((AdmissionDecision.Accept) decision).cadence();
            BufferPool pool = disks.buffers();
            String account = buffering.mode().sharedAccount();
            boolean reserved = pool.reserveStream(id, buffering.budget(readBytes(peakFragmentBytes, cadence)));
            if (reserved && account != null && !pool.shareBytes(account, sharedBytes(account))) {
                pool.releaseStream(id);
                reserved = false;
            }
            if (!reserved) {
                admission.release(id);
                String why = "no buffer memory left for the stream's fragment buffers" + mode + ": raise "
                    + "buffers.ceiling in rondo.yaml, or, where it is auto (half the JVM's direct memory), "
                    + "RONDO_JAVA_OPTS=-XX:MaxDirectMemorySize=SIZE";
                registry.log().refused(name, client, "buffer-memory", 5, why);
                return new Refused(RejectReason.BUFFER_MEMORY, 5, why);
            }
            return new Admitted(id, null, buffering, cadence);
        }
    }

    /**
     * Stream {@code id}, whose largest fragment is {@code peakFragmentBytes}, reads at {@code cadence}
     * now (stream combination or a new time cycle; admission charges it so already): its buffers
     * resized to one read of it, its shared account to admission's bound. False, its buffers as they
     * were, if the pool cannot hold them or the stream has ended.
     */
    boolean recadence(long id, Cadence cadence, long peakFragmentBytes, ClientBuffering buffering) {
        synchronized (sharing) {
            BufferPool pool = disks.buffers();
            try {
                if (!pool.rebudget(id, buffering.budget(readBytes(peakFragmentBytes, cadence)))) {
                    return false;
                }
            } catch (StreamEndedException e) {
                return false;
            }
            String account = buffering.mode().sharedAccount();
            if (account != null) {
                pool.shareBytes(account, sharedBytes(account));
            }
            return true;
        }
    }

    /** The buffer one read of {@code cadence} takes: its fragments at their largest, and the alignment around them. */
    static int readBytes(long peakFragmentBytes, Cadence cadence) {
        return (int) Math.min(1 << 30, Math.max(1, peakFragmentBytes) * cadence.period() + 2L * DiskIo.ALIGNMENT);
    }

    /** The size admission now gives shared account {@code account}. */
    private long sharedBytes(String account) {
        return admission.sharedBufferBytes().getOrDefault(account, 0L);
    }

    /** Gives back what stream {@code id} holds in admission and the pool, its shared account shrunk to its bound. */
    private void giveBack(long id, ClientBuffering buffering) {
        synchronized (sharing) {
            admission.release(id);
            disks.buffers().releaseStream(id);
            String account = buffering.mode().sharedAccount();
            if (account != null) {
                disks.buffers().shareBytes(account, sharedBytes(account));
            }
        }
    }

    /**
     * An admitted stream could not start because the server's queues were full ({@code why}): it
     * is refused as admission refuses, with a retry-after, and logged so. The caller then ends it,
     * giving back what it holds.
     */
    Refused busy(String object, String client, String why) {
        registry.log().refused(object, client, "busy", 1, why);
        return new Refused(RejectReason.DISK_TIME, 1, "the server could not start the stream of " + object + " now: "
            + why);
    }

    /**
     * A fragment of some stream went on the wire {@code slackNs} before its deadline (negative:
     * late), at {@code nowNs}, without waiting for its own client: what the server's load left it
     * ({@link AdmissionController#delivered}).
     */
    void delivered(long slackNs, long nowNs) {
        admission.delivered(slackNs, nowNs);
    }

    /** An admitted stream ended ({@code why}; null: played to its end or closed): all it held is given back. */
    void release(Admitted stream, String client, String why) {
        giveBack(stream.id(), stream.buffering());
        registry.uncount(stream.buffering().mode());
        stream.lease().close();
        registry.log().ended(stream.id(), stream.lease().object().name(), client, why);
    }

    /**
     * Why a client's declared profile cannot take this object (papers/004 Section 2.3), or null if
     * it can: its buffer must hold two of the largest fragments (the one playing and the one
     * arriving) and the largest run a start at a keyframe sends at once, and its rate must carry
     * the largest fragment within one round.
     */
    private static String unfit(ClientProfile declared, long peak, long start, long roundNs) {
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
    private static StreamDemand demand(MediaObject object, long streamId) {
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
