package io.rondo.server.stream;

import io.rondo.server.config.StreamSettings;
import io.rondo.server.runtime.DiskRuntime;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;

/**
 * What a {@link StreamSession} works with, shared by every stream of a server.
 *
 * @param disks        where fragments are read
 * @param admission    the checks before ACCEPT, and the giving back at the end
 * @param registry     the streams being served, and their totals
 * @param sender       the paced sender every DATA frame waits its turn at
 * @param initSegments the init segments ACCEPT carries
 * @param settings     the limits and deadlines a stream is held to
 * @param clock        the clock of deadlines and rounds: the round clock's own
 * @param epochClock   the wall clock, for when a stream opened
 * @param publishing   the recordings publishers write, and who may publish
 * @param redirects    where an OPEN this node cannot serve is sent instead, in a cluster
 */
record SessionServices(DiskRuntime disks, StreamAdmission admission, StreamRegistry registry, StreamSender sender,
                       InitSegments initSegments, StreamSettings settings, NanoClock clock, EpochClock epochClock,
                       Publishing publishing, Redirects redirects) {
}
