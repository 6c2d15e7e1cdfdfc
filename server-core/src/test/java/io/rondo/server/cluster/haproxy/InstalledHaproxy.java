package io.rondo.server.cluster.haproxy;

import org.junit.jupiter.api.Assumptions;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The installed {@code haproxy} for a test that runs it: the test skips, saying so, where it is not installed, unless
 * {@code -Drondo.haproxy.required=true}, when it fails.
 */
public final class InstalledHaproxy {

    private InstalledHaproxy() {
    }

    /** The installed haproxy; skips the calling test without one, or fails it if haproxy is required. */
    public static HaproxyBinary binary() {
        Optional<HaproxyBinary> found = HaproxyBinary.find();
        String missing = "haproxy is not installed (apt-get install haproxy)";
        if (Boolean.getBoolean("rondo.haproxy.required")) {
            assertTrue(found.isPresent(), missing + ", and rondo.haproxy.required is set");
        }
        Assumptions.assumeTrue(found.isPresent(), missing + "; skipping");
        return found.get();
    }
}
