package io.rondo.server.config;

import io.rondo.scheduler.admission.BufferMode;

import java.util.Locale;

/**
 * {@code buffers.clientBuffers}: which of the client's declared buffer and receive rate the server
 * puts to use in reserving buffer memory (papers/004 Sections 4 and 5; docs/client-buffers.md).
 */
public enum ClientBufferUse {
    /** ClBufRate for clients that buffer and receive fast, ClBuf for those that only buffer (the default). */
    RATE,
    /** ClBuf at most: a client's rate is used for pacing only. */
    BUFFER,
    /** DblBuf for every stream: two buffers of its own, whatever its client declared. */
    OFF;

    /** The word in rondo.yaml. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a stream may get {@code mode}. */
    public boolean allows(BufferMode mode) {
        return switch (mode) {
            case DOUBLE -> true;
            case CLIENT_BUFFER -> this != OFF;
            case CLIENT_RATE -> this == RATE;
        };
    }

    /** Parses {@code buffers.clientBuffers}. */
    static ClientBufferUse parse(String word) {
        for (ClientBufferUse use : values()) {
            if (use.word().equals(word)) {
                return use;
            }
        }
        throw new IllegalArgumentException("buffers.clientBuffers must be rate, buffer or off, was '" + word + "'");
    }
}
