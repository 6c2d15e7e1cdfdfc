package io.rondo.benchmarks.preset.clientbuffers;

import io.rondo.scheduler.admission.BufferMode;

/**
 * One point of papers/004 Figures 21-22: how many streams one server admitted under the buffer
 * ceiling with every stream's buffers reserved as {@code mode} allows, and how they then played.
 *
 * @param disk          {@code emulated} (papers/001's disk) or {@code local} (this machine's, as measured)
 * @param clients       {@code video} or {@code audio}
 * @param fragmentBytes the buffer size measured: the round is as long as fragments that fill such a buffer
 * @param roundMs       the round length
 * @param mode          the most a client may get: the server's {@code buffers.clientBuffers}
 * @param admitted      streams accepted before the first refusal, or the cap
 * @param stoppedBy     what refused the next one: a REJECT reason, or {@code cap} if none was refused
 * @param answers       OPENs answered, each checked: ACCEPT in the mode expected, or the one REJECT
 * @param late          fragments not on the wire by their deadline while the admitted streams played
 * @param guardEnded    streams their guard ended (a client that did not take its data)
 * @param peakUsedBytes the most buffer memory in use seen while they played
 * @param sharedBytes   the shared accounts' size with every stream admitted
 * @param playedRounds  rounds every admitted stream played together
 */
record BufferPoint(String disk, String clients, long fragmentBytes, long roundMs, BufferMode mode, int admitted,
                   String stoppedBy, int answers, long late, long guardEnded, long peakUsedBytes, long sharedBytes,
                   int playedRounds) {
}
