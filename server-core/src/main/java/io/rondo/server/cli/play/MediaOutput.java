package io.rondo.server.cli.play;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Where the media goes: standard output, or FILE.part, renamed to FILE once the stream has ended
 * so that FILE never holds part of a stream pretending to be all of it. A FILE that exists and is
 * not a regular file (a device such as /dev/null, a FIFO, a socket) is written as it is, in place:
 * replacing it would destroy the device or leave the FIFO's reader waiting for ever.
 */
final class MediaOutput {
    private enum State { OPEN, FINISHED, KEPT, ABANDONED }

    private final PrintStream standardOutput;
    private final OutputStream file;
    private final Path target;
    private final Path part;
    private long written;
    private State state = State.OPEN;

    private MediaOutput(PrintStream standardOutput, OutputStream file, Path target, Path part) {
        this.standardOutput = standardOutput;
        this.file = file;
        this.target = target;
        this.part = part;
    }

    /**
     * {@code standardOutput} for {@code -}; FILE itself, opened for writing as it is, when it
     * exists and is not a regular file (opening a FIFO waits for its reader, as a shell's
     * redirection does); else FILE.part, created now so that a file that cannot be written is
     * refused before any connection.
     *
     * @throws IllegalArgumentException if the file cannot be written
     */
    static MediaOutput open(String output, PrintStream standardOutput) {
        if (output.equals("-")) {
            return new MediaOutput(standardOutput, null, null, null);
        }
        Path target = Path.of(output);
        if (Files.isDirectory(target)) {
            throw new IllegalArgumentException("cannot write " + output + ": it is a folder");
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            try {
                return new MediaOutput(null, Files.newOutputStream(target, StandardOpenOption.WRITE), target, null);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot write " + output + ": " + PlayMessages.reason(e));
            }
        }
        Path part = target.resolveSibling(target.getFileName() + ".part");
        try {
            return new MediaOutput(null, Files.newOutputStream(part), target, part);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("cannot write " + output + ": the folder "
                + target.toAbsolutePath().getParent() + " does not exist");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + part + ": " + PlayMessages.reason(e));
        }
    }

    /** FILE.part, written until the stream ends; null for standard output and for a FILE written in place. */
    Path part() {
        return part;
    }

    /**
     * Writes bytes through to the file or the pipe (unbuffered: a fragment is one write).
     * PrintStream never throws, it remembers an error; so standard output is checked after every
     * write, and a decoder that quit (a broken pipe) ends the stream instead of going unnoticed.
     */
    void write(ByteBuffer bytes) throws OutputException {
        ByteBuffer view = bytes.duplicate();
        byte[] copy = new byte[view.remaining()];
        view.get(copy);
        if (standardOutput != null) {
            standardOutput.write(copy, 0, copy.length);
            if (standardOutput.checkError()) {
                throw new OutputException("the reader of standard output left", true);
            }
        } else {
            try {
                file.write(copy);
            } catch (IOException e) {
                throw new OutputException("cannot write " + written() + ": " + PlayMessages.reason(e), false);
            }
        }
        written += copy.length;
    }

    /** The file the bytes go to: FILE.part, or FILE when it is written in place. */
    private Path written() {
        return part == null ? target : part;
    }

    /** The stream ended: flushes, and renames FILE.part to FILE (a FILE written in place is closed). */
    void finish() throws OutputException {
        if (standardOutput != null) {
            if (standardOutput.checkError()) {
                throw new OutputException("the reader of standard output left", true);
            }
            state = State.FINISHED;
            return;
        }
        try {
            file.close();
            if (part == null) {
                state = State.FINISHED;
                return;
            }
            try {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
            }
            state = State.FINISHED;
        } catch (IOException e) {
            throw new OutputException("cannot write " + target + ": " + PlayMessages.reason(e), false);
        }
    }

    /**
     * Interrupted: flushes and keeps what arrived in FILE.part; says where, for the summary line.
     * A FILE written in place is closed, with what arrived already in it.
     */
    String keep() {
        if (standardOutput != null) {
            standardOutput.flush();
            state = State.KEPT;
            return "";
        }
        if (part == null) {
            closeInPlace();
            state = State.KEPT;
            return "";
        }
        if (written == 0) {
            abandon();
            return "";
        }
        try {
            file.close();
            state = State.KEPT;
            return "; kept the " + written + " bytes that arrived in " + part;
        } catch (IOException e) {
            abandon();
            return "; could not keep " + part + ": " + PlayMessages.reason(e);
        }
    }

    /**
     * The stream failed: deletes FILE.part; says so if it held anything. A FILE written in place
     * is only closed, never deleted. Does nothing once the output is finished or kept.
     */
    String abandon() {
        if (state != State.OPEN || standardOutput != null) {
            return "";
        }
        state = State.ABANDONED;
        if (part == null) {
            closeInPlace();
            return "";
        }
        try {
            file.close();
        } catch (IOException e) {
            // Deleted below; what it held no longer matters.
        }
        try {
            Files.deleteIfExists(part);
            return written == 0 ? "" : "deleted " + part + " (" + written + " bytes, an incomplete stream)";
        } catch (IOException e) {
            return "could not delete " + part + " (an incomplete stream): " + PlayMessages.reason(e);
        }
    }

    /** Closes a FILE written in place: a device or FIFO that fails to close has nothing left to keep. */
    private void closeInPlace() {
        try {
            file.close();
        } catch (IOException e) {
            // The device or the FIFO's reader is gone; what was written went where it could.
        }
    }

    /** For the summary line: where the media went. */
    String where() {
        return target == null ? "" : "; wrote " + target;
    }
}
