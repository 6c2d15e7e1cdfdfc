package io.rondo.systemtest;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Installs the run's watches as the test JVM's JUnit session opens, before any test touches
 * Netty: {@link NettyLeakWatch}, so that every leak the paranoid detector finds in this module's
 * run is seen, and {@link BlockingCallWatch}, so that every blocking call on an event loop is.
 */
public final class WatchSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        NettyLeakWatch.install();
        BlockingCallWatch.install();
    }
}
