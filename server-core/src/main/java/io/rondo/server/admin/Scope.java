package io.rondo.server.admin;

/** What a token may do on the admin port. */
public enum Scope {
    /** No token: the health probes, the dashboard's files and the API's description. */
    PUBLIC,
    /** The read token: every GET, the metrics and the events. */
    READ,
    /** The admin token: also every change. */
    ADMIN;

    /** True if a holder of this scope may do what {@code needed} allows. */
    public boolean allows(Scope needed) {
        return compareTo(needed) >= 0;
    }
}
