package io.rondo.client.protocol;

/**
 * One message of the stream protocol (docs/stream-protocol.md). Sealed so that the codec and both
 * peers' state machines see every frame type, and a new one cannot slip past them.
 */
public sealed interface Frame
        permits Open, Pause, Resume, Seek, Close, Report, Publish, Media,
                Accept, Reject, Data, End, ErrorFrame, Durable, Live, Redirect {
    /** The type byte this frame carries in its header. */
    FrameType type();
}
