package io.rondo.client.protocol;

/**
 * END: the server has sent the stream's last DATA (or stopped after CLOSE) and closes the connection.
 * Its payload is empty.
 */
public record End() implements Frame {
    @Override
    public FrameType type() {
        return FrameType.END;
    }
}
