package io.rondo.server.admin;

import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * An upload's body on its way to the library: each piece is appended to a temporary file in
 * {@code rondo/uploads/} by the upload thread, never by the event loop, and its write completes
 * only once its bytes are in the file. The admin handler sends the next piece only then, so an
 * upload holds a piece or two in memory whatever its size. The complete file is handed to
 * {@link Completion} on the same thread; the file is deleted whatever comes of it, and at once
 * when the upload is abandoned.
 */
final class UploadFile implements Route.UploadSink {

    private static final Logger LOG = LoggerFactory.getLogger(UploadFile.class);

    /** What becomes of the complete file; runs on the upload thread, which deletes the file after. */
    @FunctionalInterface
    interface Completion {
        /** The reply to the upload. */
        ApiReply complete(Path file) throws Exception;
    }

    private final Path folder;
    private final Executor thread;
    private final long maxBytes;
    private final Completion completion;
    private final Runnable ended;

    /* Touched by the upload thread only. */
    private Path file;
    private FileChannel channel;
    private long written;
    private boolean over;

    /**
     * @param folder     where the temporary file goes
     * @param thread     the one thread that writes it
     * @param maxBytes   the largest body taken; past it the write fails with 413
     * @param completion what becomes of the complete file
     * @param ended      told once, on the upload thread, when the upload is over either way
     */
    UploadFile(Path folder, Executor thread, long maxBytes, Completion completion, Runnable ended) {
        this.folder = folder;
        this.thread = thread;
        this.maxBytes = maxBytes;
        this.completion = completion;
        this.ended = ended;
    }

    @Override
    public CompletableFuture<Void> write(ByteBuf piece) {
        return CompletableFuture.runAsync(() -> {
            try {
                append(piece);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the upload to " + file + ": " + e.getMessage(), e);
            } finally {
                piece.release();
            }
        }, thread);
    }

    @Override
    public CompletableFuture<ApiReply> finish() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                open();
                channel.close();
                return completion.complete(file);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            } finally {
                end();
            }
        }, thread);
    }

    @Override
    public void abort() {
        thread.execute(this::end);
    }

    private void append(ByteBuf piece) throws IOException {
        if (over) {
            return;
        }
        written += piece.readableBytes();
        if (written > maxBytes) {
            throw Problem.payloadTooLarge("the upload is larger than the limit of " + maxBytes
                + " bytes (admin.maxUpload)");
        }
        open();
        for (ByteBuffer bytes : piece.nioBuffers()) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        }
    }

    private void open() throws IOException {
        if (channel == null) {
            Files.createDirectories(folder);
            file = Files.createTempFile(folder, "upload-", ".part");
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
        }
    }

    /** Ends the upload, once: tells {@code ended}, then deletes the file. */
    private void end() {
        if (over) {
            return;
        }
        over = true;
        ended.run();
        if (channel == null) {
            return;
        }
        try {
            try {
                Files.deleteIfExists(file);
            } finally {
                channel.close();
            }
        } catch (IOException e) {
            LOG.warn("cannot delete the upload {}: {}; the next start removes it", file, e.toString());
        }
    }
}
