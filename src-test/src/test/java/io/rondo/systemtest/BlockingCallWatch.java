package io.rondo.systemtest;

import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingMethod;
import reactor.blockhound.BlockingOperationError;
import reactor.blockhound.integration.BlockHoundIntegration;

import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Records every blocking call made on a Netty event loop. Rondo's event loops never wait (a disk
 * read, a file, a lock held by another thread, a sleep): one that does stalls every connection it
 * serves. BlockHound instruments the JDK's blocking methods once, as the test JVM starts (installed
 * by {@link WatchSessionListener}); netty-common's own integration, which BlockHound finds through
 * the ServiceLoader, makes every Netty event-loop thread one that must not block. A blocking call
 * there is recorded here with its thread and stack, and still fails in its thread with BlockHound's
 * {@link BlockingOperationError}, which Netty may only log: {@link RondoUnderTest#close()} and
 * {@link NoBlockingCallTest} read the record and fail the tests.
 */
final class BlockingCallWatch implements BlockHoundIntegration {

    /** The class of netty-common's integration, which marks Netty's event-loop threads non-blocking. */
    static final String NETTY_INTEGRATION = "io.netty.util.internal.Hidden$NettyBlockHoundIntegration";

    private static final List<BlockingCall> CALLS = new CopyOnWriteArrayList<>();
    private static volatile boolean installed;

    /**
     * One blocking call on a thread that must not block.
     *
     * @param thread the thread's name
     * @param method the JDK method that would block, as BlockHound names it
     * @param stack  where it was called from, innermost first
     */
    record BlockingCall(String thread, String method, String stack) {
        @Override
        public String toString() {
            return method + " on " + thread + "\n" + stack;
        }
    }

    private BlockingCallWatch() {
    }

    /** Installs BlockHound with this watch and every integration on the class path; idempotent. */
    static synchronized void install() {
        if (!installed) {
            BlockHound.install(new BlockingCallWatch());
            installed = true;
        }
    }

    /** True if netty-common's integration is one that {@link #install()} applies. */
    static boolean nettyIntegrationFound() {
        return ServiceLoader.load(BlockHoundIntegration.class).stream()
            .anyMatch(provider -> provider.type().getName().equals(NETTY_INTEGRATION));
    }

    /** How many blocking calls were recorded so far: a mark for {@link #since(int)}. */
    static int count() {
        return CALLS.size();
    }

    /** The blocking calls recorded after {@code mark}, in the order they were made. */
    static List<BlockingCall> since(int mark) {
        return List.copyOf(CALLS.subList(mark, CALLS.size()));
    }

    /**
     * Fails, naming each with its thread and stack, if a blocking call was recorded after
     * {@code mark} on a thread other than {@link NoBlockingCallTest}'s canary event loop.
     */
    static void assertNoneSince(int mark) {
        List<BlockingCall> calls = since(mark).stream()
            .filter(call -> !call.thread().startsWith(NoBlockingCallTest.CANARY))
            .collect(Collectors.toList());
        if (!calls.isEmpty()) {
            fail(calls.size() + " blocking call(s) on Netty event loops:\n"
                + calls.stream().map(BlockingCall::toString).collect(Collectors.joining("\n\n")));
        }
    }

    @Override
    public void applyTo(BlockHound.Builder builder) {
        builder.blockingMethodCallback(BlockingCallWatch::blocked);
        // BlockHound knows the old streams' file reads and writes (FileInputStream, RandomAccessFile) but not
        // NIO's, which Files.readAllBytes, Files.write and every FileChannel use: a file read or written on an
        // event loop through NIO is as blocking as one through a stream.
        String file = "sun.nio.ch.FileChannelImpl";
        builder.markAsBlocking(file, "read", "(Ljava/nio/ByteBuffer;)I")
            .markAsBlocking(file, "read", "([Ljava/nio/ByteBuffer;II)J")
            .markAsBlocking(file, "read", "(Ljava/nio/ByteBuffer;J)I")
            .markAsBlocking(file, "write", "(Ljava/nio/ByteBuffer;)I")
            .markAsBlocking(file, "write", "([Ljava/nio/ByteBuffer;II)J")
            .markAsBlocking(file, "write", "(Ljava/nio/ByteBuffer;J)I")
            .markAsBlocking(file, "force", "(Z)V")
            .markAsBlocking(file, "transferTo", "(JJLjava/nio/channels/WritableByteChannel;)J")
            .markAsBlocking(file, "transferFrom", "(Ljava/nio/channels/ReadableByteChannel;JJ)J");
        // A metrics scrape asks the JDK for the process's CPU load, which inside a container reads the cgroup's
        // quota from /sys/fs/cgroup: files the kernel answers from memory, never from a disk.
        String cgroup = "jdk.internal.platform.CgroupUtil";
        builder.allowBlockingCallsInside(cgroup, "readStringValue")
            .allowBlockingCallsInside(cgroup, "readAllLinesPrivileged");
    }

    private static void blocked(BlockingMethod method) {
        CALLS.add(new BlockingCall(Thread.currentThread().getName(), method.toString(), stackOf(new Throwable())));
        throw new BlockingOperationError(method);
    }

    /** The caller's frames, without BlockHound's and this class's own. */
    private static String stackOf(Throwable here) {
        return Arrays.stream(here.getStackTrace())
            .filter(frame -> !frame.getClassName().startsWith("reactor.blockhound.")
                && !frame.getClassName().equals(BlockingCallWatch.class.getName()))
            .map(frame -> "\tat " + frame)
            .collect(Collectors.joining("\n"));
    }
}
