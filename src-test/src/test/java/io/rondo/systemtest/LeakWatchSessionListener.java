package io.rondo.systemtest;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Installs {@link NettyLeakWatch} as the test JVM's JUnit session opens, before any test touches
 * Netty, so that every leak the paranoid detector finds in this module's run is seen.
 */
public final class LeakWatchSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        NettyLeakWatch.install();
    }
}
