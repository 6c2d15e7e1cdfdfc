package io.rondo.server.admin;

import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * An object as the API shows it; the media fields are null for a discrete object.
 *
 * @param name            its name, {@code /videos/a.mp4}
 * @param kind            {@code discrete} or {@code continuous}
 * @param mimeType        its Content-Type
 * @param size            its bytes as stored
 * @param etag            its strong validator, quotes included
 * @param modified        when it was stored or last renamed
 * @param disks           the disks its bytes are on
 * @param durationSeconds its presentation time
 * @param bitsPerSecond   its mean bit rate
 * @param fragments       its fragments, one round each
 * @param codecs          its codecs, as MediaSource.isTypeSupported takes them
 * @param streams         the streams reading it now
 */
record ObjectView(String name, String kind, String mimeType, long size, String etag, String modified,
                  List<String> disks, Double durationSeconds, Long bitsPerSecond, Integer fragments,
                  String codecs, int streams) {

    /** {@code GET /api/v1/objects}: a page, and the cursor of the next one (null on the last). */
    record Page(List<ObjectView> items, String next) {
    }

    /** The view of {@code object}, which {@code streams} streams read. */
    static ObjectView of(MediaObject object, int streams) {
        MediaIndex media = object.media();
        return new ObjectView(object.name(), object.kind().name().toLowerCase(Locale.ROOT), object.mimeType(),
            object.size(), object.etag(), Instant.ofEpochMilli(object.modifiedMs()).toString(),
            object.placement().files().stream().map(StoredFile::disk).distinct().sorted().toList(),
            media == null ? null : media.durationNs() / 1e9, media == null ? null : media.averageBitRate(),
            media == null ? null : media.fragments().size(), media == null ? null : media.codecs(),
            streams);
    }
}
