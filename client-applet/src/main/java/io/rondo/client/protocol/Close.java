package io.rondo.client.protocol;

/**
 * CLOSE: the client ends the stream;
 * the server answers END and closes the connection. Its payload is empty.
 */
public record Close() implements Frame {
    @Override
    public FrameType type() {
        return FrameType.CLOSE;
    }
}
