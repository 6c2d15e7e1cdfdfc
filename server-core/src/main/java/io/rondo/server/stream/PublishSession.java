package io.rondo.server.stream;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Media;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Publish;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.media.LiveCutter;
import io.rondo.content.media.LiveFragment;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.remux.LiveCutters;
import io.rondo.server.live.LiveFailure;
import io.rondo.server.live.LiveRecording;
import io.rondo.server.live.LiveRecordings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One publisher's recording (docs/stream-protocol.md, the publish direction): PUBLISH is judged
 * (a token with the {@code publish} scope, a container Rondo cuts live, a free name, admission of
 * a write stream at the declared peak rate on the disk it will be written to) and answered with
 * ACCEPT or REJECT; then its MEDIA bytes are cut into one fragment per round as they come
 * ({@link LiveCutter}), the recording starts once the container's header has come, and DURABLE
 * tells the publisher, once a round, what a crash can no longer lose. CLOSE finishes it: the last
 * round is written, a last DURABLE and END follow. Bad media, a rate past the declared peak, a
 * publisher gone quiet past {@code streams.clientTimeout} or gone, a full disk: each ends the
 * recording with every round cut so far written, and an ERROR saying why. Event loop only.
 */
final class PublishSession extends SimpleChannelInboundHandler<Frame> implements LiveRecording.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(PublishSession.class);

    private final SessionServices services;
    private final LiveRecordings recordings;
    private ChannelHandlerContext ctx;
    private DeadlineWatch deadline;
    private Publish publish;
    private String name;
    private String disk;
    private long streamId;
    private LiveCutter cutter;
    private PublishRate rate;
    private CompletableFuture<LiveRecording> starting;
    private LiveRecording recording;
    /** Fragments cut before the recording's files were ready. */
    private final List<LiveFragment> waiting = new ArrayList<>();
    private long bytesReceived;
    private boolean accepted;
    private boolean errorSent;
    private boolean ending;
    private boolean finished;

    PublishSession(SessionServices services) {
        this.services = services;
        this.recordings = services.publishing().recordings();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
        deadline = new DeadlineWatch(services.settings(), services.clock(), ctx.executor(),
            why -> error(ErrorCode.CLIENT_TIMEOUT, why));
        deadline.opening();
    }

    /** The PUBLISH that made this connection a publisher's. */
    void publish(Publish frame) {
        publish = frame;
        if (recordings == null || !services.publishing().mayPublish().test(frame.token())) {
            refuse(RejectReason.FORBIDDEN, recordings == null ? "this server records nothing"
                : "publishing needs a bearer token with the publish scope (RONDO_PUBLISH_TOKEN, or the publish.token "
                + "file beside the storage root's admin.token)");
            return;
        }
        try {
            cutter = LiveCutters.of(frame.container(), services.disks().roundNs());
        } catch (IllegalArgumentException e) {
            refuse(RejectReason.UNSUPPORTED_MEDIA, e.getMessage());
            return;
        }
        LiveRecordings.Claim claim = recordings.claim(frame.objectName(), 0);
        if (claim.name() == null) {
            refuse(RejectReason.NAME_TAKEN, claim.refusal());
            return;
        }
        name = claim.name();
        CompletableFuture.supplyAsync(recordings::diskForNext, recordings.worker())
            .whenCompleteAsync((chosen, failure) -> admit(chosen, failure), ctx.executor());
    }

    private void admit(String chosen, Throwable failure) {
        if (finished) {
            return;
        }
        if (failure != null) {
            refuse(RejectReason.DISK_TIME, "no disk can take a recording now: " + failure.getMessage());
            return;
        }
        disk = chosen;
        StreamAdmission.PublishAnswer answer = services.admission().publish(name, disk, publish.peakBitsPerSecond(),
            client());
        if (answer.refused() != null) {
            refuse(answer.refused().reason(), answer.refused().message(), answer.refused().retryAfterSeconds());
            return;
        }
        streamId = answer.id();
        accepted = true;
        rate = new PublishRate(publish.peakBitsPerSecond(), services.disks().roundNs(), services.clock().nanoTime());
        deadline.accepted(services.clock().nanoTime());
        write(new Accept(streamId, services.disks().roundNs(), publish.peakBitsPerSecond(), "",
            ByteBuffer.allocate(0)));
        LOG.info("publisher {} records {} on disk {} at up to {} bit/s", client(), name, disk,
            publish.peakBitsPerSecond());
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, Frame frame) {
        if (finished || ending) {
            return;
        }
        deadline.heard();
        if (frame instanceof Media media && accepted) {
            media(media.payload());
        } else if (frame instanceof Close && accepted) {
            finishRecording(null, null);
        } else {
            error(ErrorCode.UNEXPECTED_FRAME, accepted ? "a publisher sends MEDIA and CLOSE only"
                : "wait for ACCEPT before sending " + frame.type());
        }
    }

    private void media(ByteBuffer bytes) {
        int length = bytes.remaining();
        bytesReceived += length;
        String tooFast = rate.received(length, services.clock().nanoTime());
        if (tooFast != null) {
            error(ErrorCode.RATE_EXCEEDED, tooFast);
            return;
        }
        if (recording != null) {
            recording.stats().received(length);
        }
        try {
            cut(cutter.feed(bytes));
        } catch (MediaFormatException e) {
            error(ErrorCode.BAD_MEDIA, "cannot record " + name + " as " + publish.container() + ": " + e.getMessage());
        }
    }

    /** Fragments cut: to the recording, started once the header has come. */
    private void cut(List<LiveFragment> fragments) {
        if (recording != null) {
            recording.append(fragments);
            return;
        }
        waiting.addAll(fragments);
        if (starting == null && cutter.header() != null) {
            starting = recordings.start(name, disk, cutter.header(), publish.peakBitsPerSecond(), streamId, this);
            starting.whenCompleteAsync(this::started, ctx.executor());
        }
    }

    private void started(LiveRecording started, Throwable failure) {
        if (failure != null) {
            starting = null;
            Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
            LiveFailure why = LiveFailure.of(cause);
            error(why.diskFull() ? ErrorCode.DISK_FULL : ErrorCode.WRITE_FAILED, "cannot start recording " + name
                + ": " + why.message());
            return;
        }
        recording = started;
        recording.stats().received(bytesReceived);
        recording.append(waiting);
        waiting.clear();
        if (ending) {
            recordings.finish(recording);
        }
    }

    /**
     * The recording ends: what was cut (and, unless the bytes were bad, what the cutter still
     * holds) is written, then {@link #closed} says how it went. {@code code} is the ERROR the
     * publisher is told, null for a clean finish.
     */
    private void finishRecording(ErrorCode code, String why) {
        if (ending) {
            return;
        }
        ending = true;
        if (code != null) {
            errorSent = true;
            write(new ErrorFrame(code.code(), why));
        }
        if (cutter != null && code != ErrorCode.BAD_MEDIA && code != ErrorCode.RATE_EXCEEDED) {
            try {
                cut(cutter.finish());
            } catch (MediaFormatException e) {
                LOG.warn("recording {}: its last bytes could not be cut: {}", name, e.getMessage());
            }
        }
        if (recording != null) {
            recordings.finish(recording);
        } else if (starting == null) {
            end(code == null);
        }
    }

    @Override
    public void durable(int fragments, long durableNs) {
        ctx.executor().execute(() -> {
            if (!finished) {
                write(new Durable(fragments, durableNs, bytesReceived));
            }
        });
    }

    @Override
    public void closed(LiveFailure failure) {
        ctx.executor().execute(() -> {
            if (failure != null && !finished) {
                errorSent = true;
                write(new ErrorFrame((failure.diskFull() ? ErrorCode.DISK_FULL : ErrorCode.WRITE_FAILED).code(),
                    failure.message()));
            }
            if (!finished) {
                write(new Durable(recording.durableFragments(), recording.durableNs(), bytesReceived));
            }
            end(failure == null);
        });
    }

    /** The recording is over: END if it finished cleanly, admission given back, the connection closed. */
    private void end(boolean clean) {
        if (finished) {
            return;
        }
        if (clean && !errorSent && ctx.channel().isActive()) {
            write(new End());
        }
        release(null);
        ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
    }

    private void error(ErrorCode code, String why) {
        if (finished) {
            return;
        }
        LOG.info("publisher {} of {}: {}", client(), name, why);
        if (!accepted) {
            write(new ErrorFrame(code.code(), why));
            release(why);
            ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
            return;
        }
        finishRecording(code, why);
    }

    private void refuse(RejectReason reason, String message) {
        refuse(reason, message, 0);
    }

    private void refuse(RejectReason reason, String message, int retryAfterSeconds) {
        write(new Reject(reason, retryAfterSeconds, message));
        release(message);
        ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
    }

    /** Gives back what the publisher held: its admission, and its name if it never recorded. */
    private void release(String why) {
        if (finished) {
            return;
        }
        finished = true;
        deadline.stop();
        if (accepted) {
            services.admission().releasePublisher(streamId, name, client(), why);
        }
        if (recording == null && starting == null && recordings != null) {
            recordings.release(name);
        }
    }

    private void write(Frame frame) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(FrameCodec.encode(frame)))
            .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        if (accepted && !ending) {
            finishRecording(null, null);
        } else if (!accepted) {
            release("the publisher left");
        }
        super.channelInactive(context);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (cause instanceof DecoderException && cause.getCause() instanceof ProtocolException protocol) {
            error(protocol.code(), protocol.getMessage());
        } else {
            error(ErrorCode.INTERNAL_ERROR, String.valueOf(cause.getMessage()));
        }
    }

    private String client() {
        return ClientAddress.of(ctx.channel().remoteAddress());
    }
}
