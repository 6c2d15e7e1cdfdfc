package io.rondo.benchmarks.load.stream;

/**
 * Told of every DATA a player of a {@link LoadRun} receives, on that stream's event loop, so that
 * a bench can play the fragments as an application would (papers/002's paced reader): keep it
 * short and never block.
 */
public interface FragmentListener {

    /** Hears nothing. */
    FragmentListener NONE = new FragmentListener() {
        @Override
        public void fragment(int stream, long fragmentIndex, long arrivalNs, long dueNs, long durationNs, int bytes) {
            // Nothing listens.
        }

        @Override
        public void ended(int stream) {
            // Nothing listens.
        }
    };

    /**
     * A DATA's last byte arrived.
     *
     * @param stream the stream's number in the run, from 0
     * @param fragmentIndex the DATA's fragment index in the object
     * @param arrivalNs when, on the run's clock
     * @param dueNs its deadline on the same clock (ACCEPT's arrival plus the DATA's deadline)
     * @param durationNs its display time (ACCEPT's fragment duration)
     * @param bytes its size
     */
    void fragment(int stream, long fragmentIndex, long arrivalNs, long dueNs, long durationNs, int bytes);

    /** The stream has ended, however it ended: no more DATA will come. */
    void ended(int stream);
}
