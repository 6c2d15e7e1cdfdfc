package io.rondo.benchmarks.load.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.rondo.benchmarks.load.stream.LoadResults.Outcome;
import io.rondo.benchmarks.load.stream.LoadResults.StreamRecord;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Redirect;
import io.rondo.client.protocol.RedirectReason;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.client.protocol.Report;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One player against a scripted server, on an EmbeddedChannel whose time the test moves. */
class PlayerHandlerTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final ClientProfile PROFILE = new ClientProfile(4 << 20, 16 << 20);

    private final AtomicLong clock = new AtomicLong(100 * S);
    private LoadResults results;
    private EmbeddedChannel channel;

    /** The addresses a player connected to after its first connection. */
    private final List<String> connections = new ArrayList<>();

    private void start(boolean retry, long durationNs) {
        start(retry, durationNs, null);
    }

    /** Starts a player whose later connections are new embedded channels, if {@code reconnects} is not null. */
    private void start(boolean retry, long durationNs, Integer reconnects) {
        LoadSettings settings = new LoadSettings("127.0.0.1", 19401, "videos/clip.mp4", 1, 0, durationNs, PROFILE,
            retry, 1);
        results = new LoadResults(1, clock.get(), durationNs);
        channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(reconnects == null ? new PlayerHandler(0, settings, results, clock::get)
            : new PlayerHandler(0, settings, results, clock::get, FragmentListener.NONE, (host, port, loop, player) -> {
                connections.add(host + ":" + port);
                EmbeddedChannel next = new EmbeddedChannel();
                next.freezeTime();
                next.pipeline().addLast(player);
                next.pipeline().fireChannelActive();
                channel = next;
            }, reconnects));
        // The channel came up before the handler was added (its time frozen first): the connection is made now.
        channel.pipeline().fireChannelActive();
    }

    private void elapse(long ns) {
        clock.addAndGet(ns);
        channel.advanceTimeBy(ns, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
    }

    private void serverSends(Frame frame) {
        channel.writeInbound(Unpooled.wrappedBuffer(FrameCodec.encode(frame)));
    }

    private Frame clientSent() throws ProtocolException {
        ByteBuf sent = channel.readOutbound();
        if (sent == null) {
            return null;
        }
        try {
            return FrameCodec.decode(sent.nioBuffer());
        } finally {
            sent.release();
        }
    }

    private static Accept accept() {
        return new Accept(7, S, 2_000_000, "avc1.64001e,mp4a.40.2", ByteBuffer.allocate(0));
    }

    private static Data data(long sequence, long deadlineNs, int bytes) {
        return new Data(sequence, sequence, sequence * S, deadlineNs, false, ByteBuffer.allocate(bytes));
    }

    private StreamRecord onlyStream() {
        List<StreamRecord> streams = results.streams();
        assertEquals(1, streams.size());
        return streams.get(0);
    }

    @Test
    void measuresEachFragmentAgainstItsDeadlineFromTheArrivalOfAccept() throws Exception {
        start(false, 60 * S);
        Open open = assertInstanceOf(Open.class, clientSent());
        assertEquals("videos/clip.mp4", open.objectName());
        assertEquals(PROFILE, open.profile());

        elapse(3 * MS);
        serverSends(accept());
        elapse(200 * MS);
        serverSends(data(0, S, 1000));
        elapse(S + 805 * MS);
        serverSends(data(1, 2 * S, 1000));
        serverSends(new End());

        Lateness lateness = results.lateness();
        assertEquals(2, lateness.count());
        assertEquals(1, lateness.lateCount());
        assertEquals(-800 * MS, lateness.minNs());
        assertEquals(5 * MS, lateness.maxNs());
        StreamRecord stream = onlyStream();
        assertEquals(Outcome.ENDED, stream.outcome());
        assertTrue(stream.admitted());
        assertEquals(2, stream.fragments());
        assertEquals(1, stream.lateFragments());
        assertEquals(3 * MS, stream.openToAcceptNs());
        assertEquals(203 * MS, stream.openToFirstDataNs());
        assertFalse(channel.isOpen());
    }

    @Test
    void aFragmentArrivesWhenItsLastByteDoes() throws Exception {
        start(false, 60 * S);
        serverSends(accept());
        ByteBuffer frame = FrameCodec.encode(data(0, S, 100_000));
        channel.writeInbound(Unpooled.wrappedBuffer(frame.slice(0, 60_000)));
        elapse(S + 2 * MS);
        channel.writeInbound(Unpooled.wrappedBuffer(frame.slice(60_000, frame.remaining() - 60_000)));

        assertEquals(1, results.lateness().count());
        assertEquals(2 * MS, results.lateness().maxNs());
    }

    @Test
    void reportsEverySecondWhatItHasReceived() throws Exception {
        start(false, 60 * S);
        assertInstanceOf(Open.class, clientSent());
        serverSends(accept());
        elapse(100 * MS);
        serverSends(data(0, S, 250_000));
        elapse(900 * MS - 1);
        assertNull(clientSent());

        elapse(1);
        Report report = assertInstanceOf(Report.class, clientSent());
        assertEquals(250_000, report.bytesReceived());
        assertEquals(250_000, report.bufferedBytes());
        assertEquals(S, report.bufferedNs());
    }

    @Test
    void aRedirectSendsTheSameOpenToTheNodeNamed() throws Exception {
        start(false, 60 * S, 0);
        Open first = assertInstanceOf(Open.class, clientSent());
        assertTrue(first.followsRedirects());
        serverSends(new Redirect(RedirectReason.NOT_HERE, "rondo://10.0.0.2:9554/videos/clip.mp4"));
        assertEquals(List.of("10.0.0.2:9554"), connections);
        assertEquals(first, clientSent(), "the same OPEN, at the node named");
        serverSends(accept());
        serverSends(data(0, S, 100));
        serverSends(new End());
        StreamRecord stream = onlyStream();
        assertEquals(Outcome.ENDED, stream.outcome());
        assertEquals(1, results.admittedSoFar());
        assertEquals(0, stream.reconnects());
    }

    @Test
    void aConnectionLostMidStreamIsMadeAgainAfterItsBackoffAndTheStreamGoesOnAtTheNextFragment() throws Exception {
        start(false, 60 * S, 3);
        assertInstanceOf(Open.class, clientSent());
        serverSends(accept());
        serverSends(data(0, S, 100));
        serverSends(data(1, 2 * S, 100));
        EmbeddedChannel lost = channel;
        // The peer reset the connection. (Closing an EmbeddedChannel would also cancel its timers, which a real
        // channel's event loop keeps.)
        lost.pipeline().fireChannelInactive();
        clock.addAndGet(Reconnection.BACKOFF_NS - 1);
        lost.advanceTimeBy(Reconnection.BACKOFF_NS - 1, TimeUnit.NANOSECONDS);
        lost.runScheduledPendingTasks();
        assertEquals(List.of(), connections, "not before the backoff");
        clock.addAndGet(1);
        lost.advanceTimeBy(1, TimeUnit.NANOSECONDS);
        lost.runScheduledPendingTasks();
        assertEquals(List.of("127.0.0.1:19401"), connections, "again to the run's address");
        Open again = assertInstanceOf(Open.class, clientSent());
        assertEquals(2 * S, again.startNs(), "at the fragment after the last received");

        clock.addAndGet(50 * MS);
        serverSends(accept());
        serverSends(new Data(0, 1, S, S, false, ByteBuffer.allocate(100)));
        serverSends(new Data(1, 2, 2 * S, S, false, ByteBuffer.allocate(100)));
        serverSends(new End());
        StreamRecord stream = onlyStream();
        assertEquals(Outcome.ENDED, stream.outcome());
        assertEquals(3, stream.fragments(), "fragment 1, sent again from its keyframe, is not counted twice");
        assertEquals(0, stream.missingFragments());
        assertEquals(0, stream.sequenceFaults());
        assertEquals(1, stream.reconnects());
        assertEquals(1, stream.gaps());
        assertEquals(Reconnection.BACKOFF_NS + 50 * MS, stream.longestGapNs(), "from the loss to the next DATA");
        assertEquals(1, results.admittedSoFar(), "one stream, admitted once");
    }

    @Test
    void aRejectEndsTheStreamUnlessRetryIsOn() throws Exception {
        start(false, 60 * S);
        serverSends(new Reject(RejectReason.DISK_TIME, 5, "disk 0 has no time left in its round"));

        StreamRecord stream = onlyStream();
        assertEquals(Outcome.REJECTED, stream.outcome());
        assertFalse(stream.admitted());
        assertEquals("DISK_TIME: disk 0 has no time left in its round", stream.detail());
        assertEquals(1, results.rejects().get(RejectReason.DISK_TIME).count());
        assertFalse(channel.isOpen());
    }

    @Test
    void withRetryAShortResourceIsAskedForAgainAfterItsRetryAfter() throws Exception {
        start(true, 60 * S);
        assertInstanceOf(Open.class, clientSent());
        serverSends(new Reject(RejectReason.DISK_TIME, 5, "full"));
        elapse(5 * S - 1);
        assertNull(clientSent());

        elapse(1);
        assertInstanceOf(Open.class, clientSent());
        elapse(2 * MS);
        serverSends(accept());
        assertTrue(channel.isOpen());
        assertEquals(1, results.admittedSoFar());

        serverSends(new End());
        StreamRecord stream = onlyStream();
        assertTrue(stream.admitted());
        assertEquals(1, stream.rejects());
        assertEquals(2 * MS, stream.openToAcceptNs());
    }

    @Test
    void aRejectThatRetryingCannotHelpIsNotRetried() throws Exception {
        start(true, 60 * S);
        serverSends(new Reject(RejectReason.NOT_FOUND, 0, "no object is named videos/clip.mp4"));
        assertEquals(Outcome.REJECTED, onlyStream().outcome());
    }

    @Test
    void closesTheStreamWhenItsDurationIsOver() throws Exception {
        start(false, 10 * S);
        assertInstanceOf(Open.class, clientSent());
        serverSends(accept());
        elapse(10 * S);
        Frame last = null;
        for (Frame f = clientSent(); f != null; f = clientSent()) {
            last = f;
        }
        assertInstanceOf(Close.class, last);
        assertTrue(results.streams().isEmpty());

        channel.close();
        assertEquals(Outcome.CLOSED, onlyStream().outcome());
    }

    @Test
    void anErrorFrameEndsTheStreamAndIsCountedByCode() throws Exception {
        start(false, 60 * S);
        serverSends(accept());
        serverSends(new ErrorFrame(ErrorCode.READ_FAILED, "disk 0: I/O error"));

        assertEquals(Outcome.ERROR, onlyStream().outcome());
        assertEquals("disk 0: I/O error", results.errors().get(ErrorCode.READ_FAILED.code()).firstMessage());
    }

    @Test
    void aServerThatBreaksTheProtocolIsAFault() throws Exception {
        start(false, 60 * S);
        serverSends(data(0, S, 10));

        StreamRecord stream = onlyStream();
        assertEquals(Outcome.PROTOCOL_FAULT, stream.outcome());
        assertTrue(stream.detail().startsWith("UNEXPECTED_FRAME"), stream.detail());
    }

    @Test
    void aConnectionLostMidStreamIsSaidSo() throws Exception {
        start(false, 60 * S);
        serverSends(accept());
        channel.close();

        StreamRecord stream = onlyStream();
        assertEquals(Outcome.LOST, stream.outcome());
        assertTrue(stream.admitted());
    }
}
