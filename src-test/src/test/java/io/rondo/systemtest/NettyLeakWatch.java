package io.rondo.systemtest;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Records every leak that Netty's ResourceLeakDetector reports. It becomes Netty's logger factory
 * before any Netty class has taken a logger (installed by {@link WatchSessionListener} when the
 * test JVM starts), and hands out loggers that log as before but also keep each ERROR whose text
 * says {@code LEAK}, which is how the detector reports a buffer garbage-collected unreleased.
 */
final class NettyLeakWatch extends InternalLoggerFactory {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
    private static volatile boolean installed;

    private final InternalLoggerFactory delegate;

    private NettyLeakWatch(InternalLoggerFactory delegate) {
        this.delegate = delegate;
    }

    /** Makes this Netty's logger factory; idempotent. Must run before Netty's leak detector is loaded. */
    static synchronized void install() {
        if (!installed) {
            InternalLoggerFactory.setDefaultFactory(new NettyLeakWatch(InternalLoggerFactory.getDefaultFactory()));
            installed = true;
        }
    }

    /** Every leak report so far, as logged. */
    static List<String> leaks() {
        return List.copyOf(LEAKS);
    }

    @Override
    protected InternalLogger newInstance(String name) {
        InternalLogger logger = original(name);
        return (InternalLogger) Proxy.newProxyInstance(InternalLogger.class.getClassLoader(),
            new Class<?>[] {InternalLogger.class}, (proxy, method, args) -> {
                if (method.getName().equals("error") && args != null && args.length > 0
                    && String.valueOf(args[0]).contains("LEAK")) {
                    LEAKS.add(Arrays.stream(args).map(NettyLeakWatch::text).collect(Collectors.joining(" | ")));
                }
                try {
                    return method.invoke(logger, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    }

    /** The logger the previous factory would have made; its factory method is protected, hence reflection. */
    private InternalLogger original(String name) {
        try {
            Method newInstance = InternalLoggerFactory.class.getDeclaredMethod("newInstance", String.class);
            newInstance.setAccessible(true);
            return (InternalLogger) newInstance.invoke(delegate, name);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make Netty's own logger for " + name, e);
        }
    }

    private static String text(Object arg) {
        return arg instanceof Object[] many ? Arrays.deepToString(many) : String.valueOf(arg);
    }
}
