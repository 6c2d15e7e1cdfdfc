package io.rondo.client.protocol;

/**
 * The type byte of a frame header. Client-to-server types have the high bit clear, server-to-client
 * types have it set, so a peer can tell a frame sent the wrong way from its first three bytes.
 */
public enum FrameType {
    /** Client asks for a stream. */
    OPEN(0x01),
    /** Client asks the server to stop sending DATA for now. */
    PAUSE(0x02),
    /** Client asks the server to send DATA again after a PAUSE. */
    RESUME(0x03),
    /** Client moves playback to another time. */
    SEEK(0x04),
    /** Client ends the stream. */
    CLOSE(0x05),
    /** Client's periodic account of its buffer and what it has received. */
    REPORT(0x06),
    /** Client asks to record a stream it sends. */
    PUBLISH(0x07),
    /** Bytes of a published stream's container. */
    MEDIA(0x08),
    /** Server admitted the stream. */
    ACCEPT(0x81),
    /** Server did not admit the stream. */
    REJECT(0x82),
    /** One fragment of the stream. */
    DATA(0x83),
    /** The stream is over: no more DATA follows. */
    END(0x84),
    /** The stream or the connection failed. */
    ERROR(0x85),
    /** What of a recording is on disk, safe from a crash. */
    DURABLE(0x86),
    /** How far the recording of a live object has got, for its viewers. */
    LIVE(0x87),
    /** Server sends the client to another node to OPEN there. */
    REDIRECT(0x88);

    private static final FrameType[] BY_CODE = new FrameType[256];

    static {
        for (FrameType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;

    FrameType(int code) {
        this.code = code;
    }

    /** The type byte on the wire, 0 to 255. */
    public int code() {
        return code;
    }

    /** Whether clients send this type (and servers receive it). */
    public boolean fromClient() {
        return code < 0x80;
    }

    /**
     * The type with this byte, or null if version 1 defines none.
     *
     * @param code the type byte, 0 to 255
     */
    public static FrameType ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
