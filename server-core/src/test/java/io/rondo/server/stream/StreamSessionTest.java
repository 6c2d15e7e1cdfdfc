package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Pause;
import io.rondo.client.protocol.Redirect;
import io.rondo.client.protocol.RedirectReason;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.client.protocol.Resume;
import io.rondo.client.protocol.Seek;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.ThreadingMode;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskRuntime;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.time.ZoneOffset;
import java.time.Instant;
import java.time.Clock;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One stream session stepped by hand: the disks, the round clock and the sender in the invoker
 * mode on a clock the test moves, the client an {@link EmbeddedChannel}. No sockets, no threads,
 * no sleeps: each frame the session writes is the effect of the steps before it.
 */
@Timeout(60)
class StreamSessionTest {

    private static final long ROUND_NS = 1_000_000_000L;
    private static final ClientProfile PROFILE = new ClientProfile(4L << 20, 8L << 20);
    private static final StreamSettings SETTINGS = StreamSettings.defaults();
    /** The most duty cycles a step may take before the session is taken to be busy for ever. */
    private static final int MAX_CYCLES = 1_000;

    @TempDir
    Path temp;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final CachedEpochClock epochClock = new CachedEpochClock();
    /** The reads the disk did, in order: C or D, and the fragment read. */
    private final List<String> diskReads = new ArrayList<>();
    private Library library;
    private DiskRuntime disks;
    private StreamSender sender;
    private StreamRegistry registry;
    private StreamSession session;
    private EmbeddedChannel channel;
    private MediaIndex media;
    private long acceptNs;
    /** What the cluster's other nodes hold, as this node's {@link Elsewhere} sees it: the asks, and a node. */
    private final List<String> asked = new ArrayList<>();
    private Elsewhere.Target otherNode;

    @BeforeEach
    void connect() throws Exception {
        clock.update(1_000 * ROUND_NS);
        epochClock.update(1_795_000_000_000L);
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"),
            Clock.fixed(Instant.ofEpochMilli(epochClock.time()), ZoneOffset.UTC));
        Path clip = temp.resolve("clip.webm");
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            Files.write(clip, in.readAllBytes());
        }
        media = library.ingest().ingest(new IngestRequest(clip, "/clip.webm", null, 0), copied -> { }).media();
        disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
            .model(DiskProfile.paperDisk())
            .roundNs(ROUND_NS)
            .clocks(clock, epochClock)
            .threadingMode(ThreadingMode.INVOKER)
            .device(base -> (request, task, scratch) -> {
                String kind = request instanceof ContinuousRequest ? "C" : "D";
                diskReads.add(kind + fragmentAt(task.offset(), task.length()));
                return base.read(request, task, scratch);
            }));
        registry = new StreamRegistry(epochClock);
        disks.plan(registry);
        AdmissionController admission = new AdmissionController(disks.models(), AdmissionConfig.defaults()
            .withRound(Duration.ofNanos(ROUND_NS)).withBufferCeilingBytes(disks.buffers().ceilingBytes()), clock);
        sender = new StreamSender(clock, 16);
        session = new StreamSession(new SessionServices(disks,
            new StreamAdmission(library.directory(), disks, admission, registry), registry, sender, new InitSegments(4),
            SETTINGS, clock, epochClock, Publishing.NONE, new Redirects(this::elsewhere, registry.log())), null);
        disks.start();
        channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(new FrameInboundDecoder(SETTINGS.maxClientFrameBytes()), session);
    }

    @AfterEach
    void disconnect() {
        channel.finishAndReleaseAll();
        disks.close();
        library.close();
    }

    @Test
    void anOpenIsAcceptedAndEachRoundSendsTheNextFragmentDueTwoRoundsAfterItsRoundStarts() throws Exception {
        Accept accept = open();
        assertEquals(ROUND_NS, accept.fragmentDurationNs(), "the round");
        assertEquals(List.of("D-1", "D0"), diskReads.stream().sorted().toList(),
            "fragment 0 read at once, beside the init segment, before any round");
        Data first = (Data) written().get(0);
        assertEquals(0, first.fragmentIndex());
        assertEquals(ROUND_NS, first.deadlineNs(), "the first fragment is due one round after ACCEPT");

        for (int fragment = 1; fragment <= 3; fragment++) {
            long roundStartNs = nextRound();
            List<Frame> sent = written();
            assertEquals(1, sent.size(), "one DATA a round: " + sent);
            Data data = (Data) sent.get(0);
            assertEquals(fragment, data.fragmentIndex(), "in order");
            assertEquals(roundStartNs + 2 * ROUND_NS - acceptNs, data.deadlineNs(),
                "read in its round, due two rounds after the round starts (double buffering)");
            assertEquals("C" + fragment, diskReads.get(diskReads.size() - 1), "a C-request of the round read it");
        }
        assertEquals("playing", state());
    }

    @Test
    void anObjectNotHeldHereIsRedirectedToTheNodeThatHoldsItOnlyForAClientThatFollowsRedirects() throws Exception {
        otherNode = new Elsewhere.Target("node-b", "node-b.example", 9554, 9080);
        send(new Open("films/caf\u00e9 [hd].webm", 0, PROFILE, false, true));
        step();
        assertEquals(List.of(new Redirect(RedirectReason.NOT_HERE,
            "rondo://node-b.example:9554/films/caf%C3%A9%20%5Bhd%5D.webm")), written());
        assertEquals(List.of("films/caf\u00e9 [hd].webm not here"), asked);
        assertEquals(1, registry.log().redirected().get("not-here"));
        move(200_000_000L);
        assertFalse(channel.isOpen(), "the connection closes after REDIRECT");
    }

    @Test
    void aClientThatDoesNotFollowRedirectsIsRefusedAsBeforeAndAnUnknownObjectWithNoOtherNodeToo() throws Exception {
        otherNode = new Elsewhere.Target("node-b", "node-b.example", 9554, 9080);
        send(new Open("absent.webm", 0, PROFILE));
        step();
        Reject reject = (Reject) written().get(0);
        assertEquals(RejectReason.NOT_FOUND, reject.reason());
        assertTrue(asked.isEmpty(), "a version-1 client is never redirected: " + asked);
        otherNode = null;
        send(new Open("absent.webm", 0, PROFILE, false, true));
        step();
        assertEquals(RejectReason.NOT_FOUND, ((Reject) written().get(0)).reason(), "no node holds it");
    }

    @Test
    void aSeekIsAnsweredByTheKeyframesFragmentReadAtOnceWithDiscontinuity() throws Exception {
        open();
        written();
        nextRound();
        written();
        long seekNs = clock.nanoTime() + ROUND_NS / 4;
        move(seekNs - clock.nanoTime());

        send(new Seek(4_500_000_000L));
        step();

        List<Frame> sent = written();
        assertEquals(1, sent.size(), "the SEEK's answer alone: " + sent);
        Data answer = (Data) sent.get(0);
        assertTrue(answer.discontinuity(), "the answer to a SEEK says so");
        assertEquals(media.keyframeFragmentAt(4_500_000_000L), answer.fragmentIndex(),
            "the fragment holding the keyframe at or before 4.5 s");
        assertEquals(seekNs + ROUND_NS - acceptNs, answer.deadlineNs(), "due one round after the SEEK");
        assertEquals("D" + answer.fragmentIndex(), diskReads.get(diskReads.size() - 1), "read at once, not in a round");
    }

    @Test
    void aPausedStreamIsSentNothingAndResumesWithTheFragmentItWasDue() throws Exception {
        open();
        written();
        send(new Pause());
        step();
        int readsBefore = diskReads.size();

        nextRound();
        nextRound();
        assertEquals(List.of(), written(), "nothing while paused");
        assertEquals(readsBefore, diskReads.size(), "and nothing read for it");
        assertEquals("paused", state());

        send(new Resume());
        step();
        nextRound();
        List<Frame> sent = written();
        assertEquals(1, sent.size(), "resumed: " + sent);
        assertEquals(1, ((Data) sent.get(0)).fragmentIndex(), "where it paused");
    }

    @Test
    void aClientSilentForTheClientTimeoutIsInTimeAndOneNanosecondLaterIsEndedWithClientTimeout() throws Exception {
        open();
        written();
        long timeoutNs = TimeUnit.MILLISECONDS.toNanos(SETTINGS.clientTimeoutMs());

        move(acceptNs + timeoutNs - clock.nanoTime());
        assertEquals(List.of(), written(), "at the timeout the client is still in time");
        assertTrue(channel.isOpen());

        move(1);
        List<Frame> sent = written();
        assertEquals(1, sent.size(), "1 ns past the timeout: " + sent);
        ErrorFrame error = assertInstanceOf(ErrorFrame.class, sent.get(0));
        assertEquals(ErrorCode.CLIENT_TIMEOUT.code(), error.code());
        move(TimeUnit.MILLISECONDS.toNanos(100));
        assertFalse(channel.isOpen(), "and the connection is closed");
    }

    @Test
    void aRoundsReadTheDiskDroppedUnreadIsReadAgainAtOnceAndNoFragmentIsSkipped() throws Exception {
        open();
        written();

        long secondRoundStartNs = nextRoundStartNs() + ROUND_NS;
        move(secondRoundStartNs - clock.nanoTime());
        step();

        assertFalse(diskReads.contains("C1"), "the round's read of fragment 1 was dropped unread: " + diskReads);
        assertTrue(diskReads.contains("D1"), "and read again at once: " + diskReads);
        List<Long> fragments = new ArrayList<>();
        List<Frame> sent = written();
        for (int round = 0; round < 2 * media.fragments().size() && !(last(sent) instanceof End); round++) {
            sent.forEach(frame -> fragments.add(((Data) frame).fragmentIndex()));
            nextRound();
            sent = written();
        }
        assertInstanceOf(End.class, last(sent), "the stream plays to its end");
        sent.subList(0, sent.size() - 1).forEach(frame -> fragments.add(((Data) frame).fragmentIndex()));
        assertEquals(LongStream.range(1, media.fragments().size()).boxed().toList(), fragments,
            "every fragment after the first, in order, none skipped");
    }

    private static Frame last(List<Frame> frames) {
        return frames.isEmpty() ? null : frames.get(frames.size() - 1);
    }

    /** The stream's state as the admin API shows it, taken on its event loop. */
    private String state() {
        CompletableFuture<StreamStatus> status = session.status();
        channel.runPendingTasks();
        return status.join().state();
    }

    /** OPEN at 0, stepped until ACCEPT: returns it, with the first fragment's DATA left to read. */
    private Accept open() throws Exception {
        send(new Open("/clip.webm", 0, PROFILE));
        step();
        ByteBuf first = channel.readOutbound();
        assertTrue(first != null, "an answer to OPEN");
        Accept accept = assertInstanceOf(Accept.class, decode(first));
        acceptNs = clock.nanoTime();
        return accept;
    }

    /** Moves the clock to the next round's start and steps everything: returns when that round started. */
    private long nextRound() {
        long startNs = nextRoundStartNs();
        move(startNs - clock.nanoTime());
        step();
        return startNs;
    }

    private long nextRoundStartNs() {
        long sinceOriginNs = clock.nanoTime() - disks.roundStartNs(0);
        return disks.roundStartNs(sinceOriginNs / ROUND_NS + 1);
    }

    /** Moves the stream's clock and the channel's event loop's together, and runs what came due. */
    private void move(long ns) {
        clock.advance(ns);
        channel.advanceTimeBy(ns, TimeUnit.NANOSECONDS);
        channel.runPendingTasks();
    }

    /** Steps the disks, the round clock, the sender and the event loop until none has work left. */
    private void step() {
        for (int cycle = 0; cycle < MAX_CYCLES; cycle++) {
            int work = disks.invoke();
            channel.runPendingTasks();
            work += sender.doWork();
            channel.runPendingTasks();
            if (work == 0) {
                return;
            }
        }
        throw new AssertionError("still busy after " + MAX_CYCLES + " duty cycles");
    }

    private void send(Frame frame) {
        channel.writeInbound(Unpooled.wrappedBuffer(FrameCodec.encode(frame)));
    }

    /** The frames the session wrote since the last look. */
    private List<Frame> written() throws Exception {
        List<Frame> frames = new ArrayList<>();
        for (ByteBuf out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            frames.add(decode(out));
        }
        return frames;
    }

    private static Frame decode(ByteBuf out) throws Exception {
        ByteBuffer copy = ByteBuffer.allocate(out.readableBytes());
        out.readBytes(copy);
        out.release();
        return FrameCodec.decode(copy.flip());
    }

    private Optional<Elsewhere.Target> elsewhere(String object, boolean full) {
        asked.add(object + (full ? " full here" : " not here"));
        return Optional.ofNullable(otherNode);
    }

    /** The fragment read at a file offset, or -1 for the init segment. */
    private int fragmentAt(long fileOffset, int length) {
        List<Fragment> fragments = media.fragments();
        for (int i = 0; i < fragments.size(); i++) {
            if (fragments.get(i).fileOffset() == fileOffset && fragments.get(i).length() == length) {
                return i;
            }
        }
        return -1;
    }
}
