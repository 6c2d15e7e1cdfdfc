package io.rondo.scheduler.policy;

/** A policy the framework rules out, or one written wrongly; the message says why. */
public final class PolicyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public PolicyException(String message) {
        super(message);
    }
}
