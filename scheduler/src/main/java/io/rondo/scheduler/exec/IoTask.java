package io.rondo.scheduler.exec;

import io.rondo.scheduler.device.OpenFile;

/**
 * What one disk request reads and whom to tell: attached to a {@code DiskRequest} by whoever
 * makes it, read by the executor when the scheduler issues it.
 *
 * @param file       the file to read, or null for an IO that only takes time (an emulated disk
 *                   with nothing behind it)
 * @param offset     the first byte, any alignment
 * @param length     how many bytes
 * @param streamId   the stream whose buffer reservation pays for it, or {@link BufferPool#NO_STREAM}
 * @param completion told when the read is done or failed, on the executor's thread
 */
public record IoTask(OpenFile file, long offset, int length, long streamId, IoCompletion completion) {

    public IoTask {
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("a read needs offset >= 0 and length > 0, was " + offset + "+" + length);
        }
        if (completion == null) {
            throw new IllegalArgumentException("a read needs someone to tell when it is done");
        }
    }
}
