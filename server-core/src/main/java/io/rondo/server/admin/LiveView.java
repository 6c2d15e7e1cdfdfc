package io.rondo.server.admin;

import io.rondo.content.model.Fragment;
import io.rondo.server.live.LiveRecording;
import io.rondo.server.live.LiveStats;
import io.rondo.server.live.LiveTotals;

import java.time.Instant;
import java.util.List;

/**
 * A recording being written as {@code GET /api/v1/live} shows it.
 *
 * @param id                  its catalog id
 * @param name                the object it grows into
 * @param disk                the disk it is written to
 * @param peakBitsPerSecond   the peak rate its publisher declared, which admission charges
 * @param bytesReceived       bytes its publisher sent
 * @param recentBitsPerSecond the media rate of its last fragments cut (up to {@link #RECENT}); null before the first
 * @param fragmentsCut        fragments cut, one a round
 * @param writeRounds         write rounds done, each forced to the disk
 * @param lateWriteRounds     write rounds the disk dropped at their round's end, written again the round after
 * @param bytesWritten        bytes written, block padding included
 * @param durableFragments    fragments durable: written, forced and in the catalog
 * @param durableSeconds      the media time durable, what a crash now would keep
 * @param recordedSeconds     the media time cut, durable or not: what a viewer at the live edge sees
 * @param viewers             streams watching it now
 * @param startedAt           when it started (ISO-8601, UTC)
 */
record LiveView(long id, String name, String disk, long peakBitsPerSecond, long bytesReceived,
                Long recentBitsPerSecond, long fragmentsCut, long writeRounds, long lateWriteRounds, long bytesWritten,
                int durableFragments, double durableSeconds, double recordedSeconds, int viewers, String startedAt) {

    /** How many of the last fragments the recent rate is taken over. */
    static final int RECENT = 5;

    /** {@code GET /api/v1/live}: the recordings, by name, and what every recording did. */
    record Page(List<LiveView> items, Totals totals) {
    }

    /**
     * What every recording of the server did.
     *
     * @param active          recordings being written now
     * @param started         recordings started since the server started
     * @param writeRounds     write rounds done, every recording
     * @param lateWriteRounds write rounds dropped at their round's end and written a round later
     * @param bytesWritten    bytes written, block padding included
     * @param bytesReceived   bytes the publishers sent
     */
    record Totals(long active, long started, long writeRounds, long lateWriteRounds, long bytesWritten,
                  long bytesReceived) {

        static Totals of(LiveTotals totals) {
            return new Totals(totals.active(), totals.started(), totals.writeRounds(), totals.lateWriteRounds(),
                totals.bytesWritten(), totals.bytesReceived());
        }
    }

    static LiveView of(LiveRecording recording) {
        LiveStats stats = recording.stats();
        List<Fragment> fragments = recording.media().fragments();
        return new LiveView(recording.id(), recording.name(), recording.disk(), recording.peakBitsPerSecond(),
            stats.bytesReceived(), recentBitsPerSecond(fragments), stats.fragmentsCut(), stats.writeRounds(),
            stats.lateWriteRounds(), stats.bytesWritten(), recording.durableFragments(), recording.durableNs() / 1e9,
            recording.media().durationNs() / 1e9, recording.viewers(),
            Instant.ofEpochMilli(recording.createdMs()).toString());
    }

    private static Long recentBitsPerSecond(List<Fragment> fragments) {
        long bytes = 0;
        long ns = 0;
        for (Fragment fragment : fragments.subList(Math.max(0, fragments.size() - RECENT), fragments.size())) {
            bytes += fragment.length();
            ns += fragment.durationNs();
        }
        return ns == 0 ? null : Math.round(bytes * 8e9 / ns);
    }
}
