package io.rondo.server.stream;

import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.Publish;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.media.LiveCutter;
import io.rondo.content.media.LiveFragment;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.remux.LiveCutters;
import io.rondo.server.live.LiveFailure;
import io.rondo.server.live.LiveRecording;
import io.rondo.server.live.LiveRecordings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One publisher's recording, whatever carries its bytes (the stream protocol's PUBLISH, an HTTP
 * PUT): its request judged (a token with the {@code publish} scope, a container Rondo cuts live, a
 * free name, admission of a write stream at the declared peak rate on the disk it will be written
 * to); then its bytes cut into one fragment per round as they come ({@link LiveCutter}), the
 * recording started once the container's header has come, and the publisher told, once a round,
 * what a crash can no longer lose. {@link #finish} ends it cleanly; bad media, a rate past the
 * declared peak, a full disk or {@link #fail} end it with every round cut so far written.
 *
 * <p>Every call, and every event it gives, is on its carrier's event loop.
 */
public final class Publication implements LiveRecording.Listener {

    /** What a publication tells its carrier, on the carrier's event loop. */
    public interface Events {

        /** The recording may begin: its stream id, the round length, the peak rate it is charged. */
        void accepted(long streamId, long roundNs, long peakBitsPerSecond);

        /** The request was refused, with a reason, when to try again (0: never) and why. */
        void refused(RejectReason reason, int retryAfterSeconds, String message);

        /** {@code fragments} fragments are durable, the media up to {@code durableNs}. */
        void durable(long fragments, long durableNs, long bytesReceived);

        /**
         * The recording is over: {@code code} null for a clean finish, else the error and why. What
         * was durable stays; {@code fragments} and {@code durableNs} say how much that is, of the
         * {@code bytesReceived} the publisher sent.
         */
        void ended(ErrorCode code, String why, long fragments, long durableNs, long bytesReceived);
    }

    private static final Logger LOG = LoggerFactory.getLogger(Publication.class);

    private final SessionServices services;
    private final LiveRecordings recordings;
    private final Executor loop;
    private final String client;
    private final Events events;
    private final List<LiveFragment> waiting = new ArrayList<>();
    private Publish request;
    private String name;
    private String diskName;
    private long streamId;
    private LiveCutter cutter;
    private PublishRate rate;
    private CompletableFuture<LiveRecording> starting;
    private LiveRecording recording;
    private long bytesReceived;
    private boolean accepted;
    private boolean ending;
    private boolean over;
    private ErrorCode endCode;
    private String endWhy;

    Publication(SessionServices services, Executor loop, String client, Events events) {
        this.services = services;
        this.recordings = services.publishing().recordings();
        this.loop = loop;
        this.client = client;
        this.events = events;
    }

    /** Judges the request: {@link Events#accepted} or {@link Events#refused} follows. */
    public void start(Publish publish) {
        request = publish;
        if (recordings == null || !services.publishing().mayPublish().test(publish.token())) {
            refuse(RejectReason.FORBIDDEN, recordings == null ? "this server records nothing"
                : "publishing needs a bearer token with the publish scope (RONDO_PUBLISH_TOKEN, or the publish.token "
                + "file beside the storage root's admin.token)", 0);
            return;
        }
        try {
            cutter = LiveCutters.of(publish.container(), services.disks().roundNs());
        } catch (IllegalArgumentException e) {
            refuse(RejectReason.UNSUPPORTED_MEDIA, e.getMessage(), 0);
            return;
        }
        LiveRecordings.Claim claim = recordings.claim(publish.objectName());
        if (claim.name() == null) {
            refuse(RejectReason.NAME_TAKEN, claim.refusal(), 0);
            return;
        }
        name = claim.name();
        CompletableFuture.supplyAsync(recordings::diskForNext, recordings.worker())
            .whenCompleteAsync(this::admit, loop);
    }

    private void admit(String disk, Throwable failure) {
        if (over) {
            return;
        }
        if (failure != null) {
            refuse(RejectReason.DISK_TIME, "no disk can take a recording now: " + failure.getMessage(), 1);
            return;
        }
        StreamAdmission.PublishAnswer answer = services.admission().publish(name, disk, request.peakBitsPerSecond(),
            client);
        if (answer.refused() != null) {
            refuse(answer.refused().reason(), answer.refused().message(), answer.refused().retryAfterSeconds());
            return;
        }
        streamId = answer.id();
        accepted = true;
        rate = new PublishRate(request.peakBitsPerSecond(), services.disks().roundNs(), services.clock().nanoTime());
        diskName = disk;
        LOG.info("publisher {} records {} on disk {} at up to {} bit/s", client, name, disk,
            request.peakBitsPerSecond());
        events.accepted(streamId, services.disks().roundNs(), request.peakBitsPerSecond());
    }

    /** Whether the recording was admitted and is not over: bytes may come. */
    public boolean accepted() {
        return accepted && !ending && !over;
    }

    /** Whether the recording is ending or over: what the publisher sends now is let go. */
    public boolean ending() {
        return ending || over;
    }

    /** The name the recording is written under, once claimed. */
    public String name() {
        return name;
    }

    /** The publisher's next bytes, in any chunking. */
    public void media(ByteBuffer bytes) {
        if (!accepted() || ending) {
            return;
        }
        int length = bytes.remaining();
        bytesReceived += length;
        String tooFast = rate.received(length, services.clock().nanoTime());
        if (tooFast != null) {
            fail(ErrorCode.RATE_EXCEEDED, tooFast);
            return;
        }
        if (recording != null) {
            recording.stats().received(length);
        }
        try {
            cut(cutter.feed(bytes));
        } catch (MediaFormatException e) {
            fail(ErrorCode.BAD_MEDIA, "cannot record " + name + " as " + request.container() + ": " + e.getMessage());
        }
    }

    /** The publisher is done: what it sent is written, then {@link Events#ended} with no error. */
    public void finish() {
        end(null, null);
    }

    /** The recording must end with {@code code}: what was cut so far is written, then {@link Events#ended}. */
    public void fail(ErrorCode code, String why) {
        if (!accepted) {
            over(code, why);
            return;
        }
        LOG.info("publisher {} of {}: {}", client, name, why);
        end(code, why);
    }

    /** The carrier is gone before or after it was accepted: the recording ends as if finished. */
    public void left() {
        if (accepted) {
            end(null, null);
        } else {
            over(null, "the publisher left");
        }
    }

    private void cut(List<LiveFragment> fragments) {
        if (recording != null) {
            recording.append(fragments);
            return;
        }
        waiting.addAll(fragments);
        if (starting == null && cutter.header() != null) {
            starting = recordings.start(name, diskName, cutter.header(), request.peakBitsPerSecond(), streamId, this);
            starting.whenCompleteAsync(this::started, loop);
        }
    }

    private void started(LiveRecording started, Throwable failure) {
        if (failure != null) {
            starting = null;
            LiveFailure why = LiveFailure.of(failure.getCause() != null ? failure.getCause() : failure);
            endCode = why.diskFull() ? ErrorCode.DISK_FULL : ErrorCode.WRITE_FAILED;
            over(endCode, "cannot start recording " + name + ": " + why.message());
            return;
        }
        recording = started;
        recording.stats().received(bytesReceived);
        recording.append(waiting);
        waiting.clear();
        if (ending) {
            recordings.finish(recording);
        }
    }

    private void end(ErrorCode code, String why) {
        if (ending || over) {
            return;
        }
        ending = true;
        endCode = code;
        endWhy = why;
        if (cutter != null && code != ErrorCode.BAD_MEDIA && code != ErrorCode.RATE_EXCEEDED) {
            try {
                cut(cutter.finish());
            } catch (MediaFormatException e) {
                LOG.warn("recording {}: its last bytes could not be cut: {}", name, e.getMessage());
            }
        }
        if (recording != null) {
            recordings.finish(recording);
        } else if (starting == null) {
            over(code, code == null && cutter != null && cutter.header() == null
                ? "no media came: nothing was recorded" : why);
        }
    }

    @Override
    public void durable(int fragments, long durableNs) {
        loop.execute(() -> {
            if (!over) {
                events.durable(fragments, durableNs, bytesReceived);
            }
        });
    }

    @Override
    public void closed(LiveFailure failure) {
        loop.execute(() -> {
            if (failure != null && endCode == null) {
                endCode = failure.diskFull() ? ErrorCode.DISK_FULL : ErrorCode.WRITE_FAILED;
                endWhy = failure.message();
            } else if (failure == null && !ending) {
                endCode = ErrorCode.ENDED_BY_OPERATOR;
                endWhy = "an operator stopped the recording";
            }
            over(endCode, endWhy);
        });
    }

    /** The publication is over: its admission and name given back, its carrier told. */
    private void over(ErrorCode code, String why) {
        if (over) {
            return;
        }
        over = true;
        if (accepted) {
            services.admission().releasePublisher(streamId, name, client, why);
        }
        if (recording == null && starting == null && recordings != null) {
            recordings.release(name);
        }
        long fragments = recording == null ? 0 : recording.durableFragments();
        long durableNs = recording == null ? 0 : recording.durableNs();
        events.ended(code, why, fragments, durableNs, bytesReceived);
    }

    private void refuse(RejectReason reason, String message, int retryAfterSeconds) {
        over = true;
        if (name != null) {
            recordings.release(name);
        }
        events.refused(reason, retryAfterSeconds, message);
    }
}
