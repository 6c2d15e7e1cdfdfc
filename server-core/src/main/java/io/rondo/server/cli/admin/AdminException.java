package io.rondo.server.cli.admin;

/**
 * Why a {@code rondo admin} command stopped, as the one line it prints and the exit code it ends
 * with: the server answered with an error, the command was used wrongly, or no server answered.
 */
final class AdminException extends RuntimeException {

    private final int exitCode;
    private final int status;

    private AdminException(int exitCode, int status, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
        this.status = status;
    }

    /** The server answered {@code status}, an error; the message says what it said. */
    static AdminException answered(int status, String message) {
        return new AdminException(AdminCommand.EXIT_ANSWERED, status, message);
    }

    /** The command cannot be run as given: nothing was sent. */
    static AdminException usage(String message) {
        return new AdminException(AdminCommand.EXIT_USAGE, 0, message);
    }

    /** No answer came from the admin port. */
    static AdminException unreachable(String message) {
        return new AdminException(AdminCommand.EXIT_UNREACHABLE, 0, message);
    }

    int exitCode() {
        return exitCode;
    }

    /** The HTTP status the server answered, or 0 if it did not answer. */
    int status() {
        return status;
    }
}
