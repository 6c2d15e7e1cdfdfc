package io.rondo.server.admin;

import io.netty.buffer.ByteBuf;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.Publish;
import io.rondo.client.protocol.RejectReason;
import io.rondo.server.stream.Publication;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A live recording's media arriving as the body of an HTTP PUT (the stream protocol's PUBLISH over
 * HTTP): each piece of the body handed to its {@link Publication} as it comes, so that the body is
 * never held whole and the connection reads no faster than the recording is cut; the answer given
 * when the publication ends, as soon as it ends, whether or not the body has: 201 for a clean finish
 * (the body's end, or an operator's stop), else the reason as a problem, saying what was kept. A
 * client that leaves mid-body ends the recording cleanly with what it sent.
 *
 * <p>Every call is on the connection's event loop, where the publication tells its events too.
 */
final class LiveUpload implements Route.UploadSink, Publication.Events {

    private final String name;
    private final CompletableFuture<ApiReply> answer = new CompletableFuture<>();
    private Publication publication;
    private boolean accepted;
    /** The piece that came before the publication was accepted, and the write that waits for it. */
    private ByteBuf held;
    private CompletableFuture<Void> heldWrite;

    LiveUpload(String name) {
        this.name = name;
    }

    /** Starts judging the publication: the body's pieces are taken once it is accepted. */
    void start(Function<Publication.Events, Publication> publications, Publish publish) {
        publication = publications.apply(this);
        publication.start(publish);
    }

    @Override
    public CompletableFuture<Void> write(ByteBuf piece) {
        if (answer.isDone()) {
            piece.release();
            return CompletableFuture.completedFuture(null);
        }
        if (!accepted) {
            held = piece;
            heldWrite = new CompletableFuture<>();
            return heldWrite;
        }
        feed(piece);
        return CompletableFuture.completedFuture(null);
    }

    private void feed(ByteBuf piece) {
        try {
            for (ByteBuffer bytes : piece.nioBuffers()) {
                publication.media(bytes);
            }
        } finally {
            piece.release();
        }
    }

    @Override
    public CompletableFuture<ApiReply> finish() {
        publication.finish();
        return answer;
    }

    @Override
    public void abort() {
        releaseHeld();
        publication.left();
    }

    @Override
    public CompletableFuture<ApiReply> answered() {
        return answer;
    }

    @Override
    public void accepted(long streamId, long roundNs, long peakBitsPerSecond) {
        accepted = true;
        if (held != null) {
            ByteBuf piece = held;
            CompletableFuture<Void> write = heldWrite;
            held = null;
            heldWrite = null;
            feed(piece);
            write.complete(null);
        }
    }

    @Override
    public void refused(RejectReason reason, int retryAfterSeconds, String message) {
        releaseHeld();
        answer.completeExceptionally(switch (reason) {
            case FORBIDDEN -> Problem.forbidden(message);
            case NAME_TAKEN -> Problem.conflict(message);
            case UNSUPPORTED_MEDIA -> Problem.unsupportedMediaType(message);
            default -> retryAfterSeconds > 0 ? Problem.noCapacity(message, retryAfterSeconds)
                : Problem.unprocessable("peakRate", message + ": no round of this server can take a recording at "
                    + "this peak rate, whatever else it serves");
        });
    }

    @Override
    public void durable(long fragments, long durableNs, long bytesReceived) {
        // The answer says what is durable once the recording ends; an HTTP client hears nothing before.
    }

    @Override
    public void ended(ErrorCode code, String why, long fragments, long durableNs, long bytesReceived) {
        releaseHeld();
        Map<String, Object> kept = new LinkedHashMap<>();
        kept.put("name", name);
        kept.put("fragments", fragments);
        kept.put("durableNs", durableNs);
        kept.put("bytesReceived", bytesReceived);
        if ((code == null || code == ErrorCode.ENDED_BY_OPERATOR) && fragments > 0) {
            answer.complete(ApiReply.json(201, kept).header("Location", ObjectsResource.location(name)));
            return;
        }
        String detail = (why == null ? "the recording ended" : why) + "; " + (fragments == 0 ? "nothing was kept"
            : fragments + " fragments (" + String.format(Locale.ROOT, "%.1f", durableNs / 1e9)
                + " s) were recorded and kept as " + name);
        Problem problem = code == null || code == ErrorCode.BAD_MEDIA ? Problem.unprocessable("body", detail)
            : code == ErrorCode.RATE_EXCEEDED ? Problem.rateExceeded(detail)
            : code == ErrorCode.DISK_FULL ? Problem.diskFull(detail)
            : Problem.writeFailed(detail);
        kept.forEach(problem::with);
        answer.completeExceptionally(problem);
    }

    private void releaseHeld() {
        if (held != null) {
            held.release();
            held = null;
            heldWrite.complete(null);
            heldWrite = null;
        }
    }
}
