package io.rondo.client.protocol;

/**
 * RESUME: the client asks the server to send DATA again, from where it paused. Its payload is empty.
 */
public record Resume() implements Frame {
    @Override
    public FrameType type() {
        return FrameType.RESUME;
    }
}
