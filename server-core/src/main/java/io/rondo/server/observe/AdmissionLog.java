package io.rondo.server.observe;

import org.agrona.concurrent.EpochClock;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every stream's admission decision and end: counted by result and reason, the last
 * {@link #KEPT} kept for the admin API, each published as a {@code stream} event and counted in
 * the metrics. Thread-safe: streams are decided on many event loops.
 */
public final class AdmissionLog {

    /** How many decisions {@code GET /api/v1/admission} lists. */
    public static final int KEPT = 50;

    /** The reasons a stream is refused for that admission counts, in the order the API lists them. */
    public static final List<String> REASONS = List.of("disk-time", "buffer-memory", "network", "client-profile",
        "draining");

    /** One decision. */
    public record Decision(String at, String object, String result, String reason, Long retryAfterSeconds,
                           String detail) {
    }

    /** A stream event's payload. */
    public record StreamEvent(String type, Long id, String object, String client, String reason, String detail) {
    }

    private final EpochClock clock;
    private final ArrayDeque<Decision> recent = new ArrayDeque<>();
    private final Map<String, Long> rejected = new LinkedHashMap<>();
    private long accepted;
    private final Map<String, Long> redirected = new LinkedHashMap<>();
    private volatile RondoMetrics metrics;
    private volatile EventHub events;

    /** @param clock the wall clock each decision is stamped with */
    public AdmissionLog(EpochClock clock) {
        this.clock = clock;
        REASONS.forEach(reason -> rejected.put(reason, 0L));
    }

    /** Counts into {@code bound} and publishes to {@code hub} from now on. */
    public void observe(RondoMetrics bound, EventHub hub) {
        this.metrics = bound;
        this.events = hub;
    }

    /** A stream was admitted. */
    public void admitted(long id, String object, String client) {
        record(new Decision(now(), object, "accepted", null, null, "admitted as stream " + id));
        RondoMetrics counted = metrics;
        if (counted != null) {
            counted.admission("accepted", null);
        }
        publish(new StreamEvent("admitted", id, object, client, null, null));
    }

    /** A stream was refused by admission control, or because its client's profile cannot take it. */
    public void refused(String object, String client, String reason, long retryAfterSeconds, String detail) {
        record(new Decision(now(), object, "rejected", reason, retryAfterSeconds, detail));
        RondoMetrics counted = metrics;
        if (counted != null) {
            counted.admission("rejected", reason);
        }
        publish(new StreamEvent("refused", null, object, client, reason, detail));
    }

    /**
     * A stream this node could not serve was sent to another node (the stream protocol's REDIRECT).
     *
     * @param reason {@code not-here} (this node does not hold the object) or {@code no-room}
     * @param target the URL the client was sent to
     */
    public void redirected(String object, String client, String reason, String target) {
        record(new Decision(now(), object, "redirected", reason, null, "sent to " + target));
        RondoMetrics counted = metrics;
        if (counted != null) {
            counted.redirect(reason);
        }
        publish(new StreamEvent("redirected", null, object, client, reason, target));
    }

    /** When a decision is made, as ISO-8601 in UTC. */
    private String now() {
        return Instant.ofEpochMilli(clock.time()).toString();
    }

    /** An admitted stream ended; {@code why} is null when it played to its end or the client closed it. */
    public void ended(long id, String object, String client, String why) {
        publish(new StreamEvent("ended", id, object, client, null, why));
    }

    private void publish(StreamEvent event) {
        EventHub hub = events;
        if (hub != null) {
            hub.publish("stream", event);
        }
    }

    private synchronized void record(Decision decision) {
        if (decision.result().equals("accepted")) {
            accepted++;
        } else if (decision.result().equals("redirected")) {
            redirected.merge(decision.reason(), 1L, Long::sum);
        } else {
            rejected.merge(decision.reason(), 1L, Long::sum);
        }
        recent.addFirst(decision);
        if (recent.size() > KEPT) {
            recent.removeLast();
        }
    }

    /** Streams admitted since the start. */
    public synchronized long accepted() {
        return accepted;
    }

    /** Streams refused since the start, by reason. */
    public synchronized Map<String, Long> rejected() {
        return new LinkedHashMap<>(rejected);
    }

    /** Streams sent to another node since the start, by reason. */
    public synchronized Map<String, Long> redirected() {
        return new LinkedHashMap<>(redirected);
    }

    /** The last decisions, newest first. */
    public synchronized List<Decision> recent() {
        return new ArrayList<>(recent);
    }
}
