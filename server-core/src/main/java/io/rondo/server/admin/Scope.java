package io.rondo.server.admin;

/** What a token may do on the admin port and the stream port. */
public enum Scope {
    /** No token: the health probes, the dashboard's files and the API's description. */
    PUBLIC,
    /** The read token: every GET, the metrics and the events. */
    READ,
    /** The publish token: recording live streams (PUBLISH), and nothing else; it reads nothing. */
    PUBLISH,
    /** The admin token: everything, reading, publishing and every change. */
    ADMIN;

    /** True if a holder of this scope may do what {@code needed} allows. */
    public boolean allows(Scope needed) {
        return this == needed || needed == PUBLIC || this == ADMIN;
    }
}
