package io.rondo.server.live;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.server.runtime.Prepared;

import java.nio.ByteBuffer;
import java.util.function.IntConsumer;

/**
 * A recording made ready to watch: its fragments as they are cut, the newest from the recorder's
 * memory and the others read from its data file, where each one's position is the file's start
 * plus its offset (the file is reserved ahead in one piece, so its blocks follow each other).
 */
final class LivePrepared implements Prepared {

    private final LiveRecording recording;
    private final MediaObject object;
    private final OpenFile file;
    private final int diskIndex;
    private final long startPosition;
    private final long lastPosition;

    /**
     * @param file          the data file, open for reading
     * @param startPosition the model position of its first byte
     * @param lastPosition  the last position on its disk's model
     */
    LivePrepared(LiveRecording recording, OpenFile file, int diskIndex, long startPosition, long lastPosition) {
        this.recording = recording;
        this.object = recording.object(recording.durableFragments());
        this.file = file;
        this.diskIndex = diskIndex;
        this.startPosition = startPosition;
        this.lastPosition = lastPosition;
    }

    @Override
    public MediaObject object() {
        return object;
    }

    @Override
    public int count() {
        return recording.count();
    }

    @Override
    public Fragment fragment(int i) {
        return recording.fragment(i);
    }

    @Override
    public OpenFile file(int i) {
        return file;
    }

    @Override
    public long position(int i) {
        return Math.min(lastPosition, startPosition + recording.fragment(i).fileOffset());
    }

    @Override
    public int diskIndex(int i) {
        return diskIndex;
    }

    @Override
    public MediaIndex media() {
        return recording.media();
    }

    @Override
    public long durableNs() {
        return recording.durableNs();
    }

    @Override
    public long peakFragmentBytes() {
        return 2 * recording.peakBytesPerRound();
    }

    @Override
    public boolean growing() {
        return recording.growing();
    }

    @Override
    public AutoCloseable watch(IntConsumer listener) {
        return recording.watch(listener);
    }

    @Override
    public ByteBuffer inMemory(int i) {
        return recording.inMemory(i);
    }
}
