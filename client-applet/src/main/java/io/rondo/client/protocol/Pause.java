package io.rondo.client.protocol;

/**
 * PAUSE: the client asks the server to stop sending DATA until RESUME;
 * frames already sent still arrive. Its payload is empty.
 */
public record Pause() implements Frame {
    @Override
    public FrameType type() {
        return FrameType.PAUSE;
    }
}
