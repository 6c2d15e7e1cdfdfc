package io.rondo.server.cli.console;

import java.io.IOException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;

/** Why an I/O operation failed, in the words a command prints on standard error: no class names, no stack. */
public final class Reasons {

    private Reasons() {
    }

    /** Why {@code e} happened: the unknown host, the file system's reason, or the message. */
    public static String of(IOException e) {
        if (e instanceof UnknownHostException) {
            return "unknown host " + e.getMessage();
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
