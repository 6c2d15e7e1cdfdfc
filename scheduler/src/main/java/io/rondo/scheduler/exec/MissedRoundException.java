package io.rondo.scheduler.exec;

import java.io.IOException;

/**
 * A C-request's read was never issued: it was still unread when its round ended, and the
 * scheduler dropped it (papers/001 Section 2: a glitch). The object's data is intact; a stream
 * may read the fragment again by other means, or skip it.
 */
public final class MissedRoundException extends IOException {

    private static final long serialVersionUID = 1L;

    public MissedRoundException(String message) {
        super(message);
    }
}
