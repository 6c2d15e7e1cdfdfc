package io.rondo.server.live;

import io.rondo.content.ingest.Directory;
import io.rondo.content.model.MediaObject;
import io.rondo.server.config.LiveSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongPredicate;

/**
 * Retention of recordings, by age and by a byte quota per folder ({@code live.retention}): in each
 * folder the objects older than its age, then the oldest while the folder holds more than its
 * quota, are deleted; never one being recorded or read (a stream, a download), which waits for a
 * later sweep.
 */
public final class LiveRetention {

    private static final Logger LOG = LoggerFactory.getLogger(LiveRetention.class);

    private final Directory directory;
    private final Function<String, List<MediaObject>> objectsUnder;
    private final LongPredicate recording;
    private final List<LiveSettings.Retention> rules;
    private final Clock clock;

    /**
     * @param objectsUnder the objects whose names start with a folder
     * @param recording    whether an object, by id, is being recorded
     */
    public LiveRetention(Directory directory, Function<String, List<MediaObject>> objectsUnder,
                         LongPredicate recording, List<LiveSettings.Retention> rules, Clock clock) {
        this.directory = directory;
        this.objectsUnder = objectsUnder;
        this.recording = recording;
        this.rules = List.copyOf(rules);
        this.clock = clock;
    }

    /** Whether there is any rule to keep. */
    public boolean any() {
        return !rules.isEmpty();
    }

    /** One sweep of every rule; returns the names deleted, oldest first. */
    public List<String> sweep() {
        List<String> deleted = new ArrayList<>();
        long nowMs = clock.millis();
        for (LiveSettings.Retention rule : rules) {
            List<MediaObject> objects = new ArrayList<>(objectsUnder.apply(rule.folder()));
            objects.sort(Comparator.comparingLong(MediaObject::createdMs).thenComparing(MediaObject::name));
            long total = objects.stream().mapToLong(MediaObject::size).sum();
            for (MediaObject object : objects) {
                boolean tooOld = rule.maxAgeMs() > 0 && nowMs - object.createdMs() > rule.maxAgeMs();
                boolean overQuota = rule.maxBytes() > 0 && total > rule.maxBytes();
                if (!tooOld && !overQuota) {
                    continue;
                }
                if (recording.test(object.id()) || directory.readers(object.id()) > 0) {
                    continue;
                }
                try {
                    directory.delete(object.name());
                    total -= object.size();
                    deleted.add(object.name());
                    LOG.info("retention of {}: deleted {} ({}, {} bytes)", rule.folder(), object.name(),
                        tooOld ? "older than " + rule.maxAgeMs() / 3_600_000 + " h" : "over the folder's quota",
                        object.size());
                } catch (IllegalArgumentException | IllegalStateException | IOException e) {
                    LOG.warn("retention of {}: cannot delete {}: {}", rule.folder(), object.name(), e.getMessage());
                }
            }
        }
        return deleted;
    }
}
