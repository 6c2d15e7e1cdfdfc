package io.rondo.server.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code streams:} section's limits and deadlines, as rondo.yaml writes them. */
class StreamSettingsTest {

    @TempDir
    Path dir;

    private StreamSettings load(String yaml) throws IOException {
        return RondoConfig.load(Files.writeString(dir.resolve("rondo.yaml"), yaml)).streamSettings();
    }

    private void assertRefused(String yaml, String message) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> load(yaml));
        assertTrue(refused.getMessage().contains(message), refused.getMessage());
    }

    @Test
    void deadlinesAreDurationsAndTheFrameLimitASize() throws IOException {
        StreamSettings settings = load("""
            streams:
              clientTimeout: 1500ms
              openTimeout: 2s
              maxClientFrame: 16K
              maxUnansweredSeeks: 8
              allowedOrigins: [same-origin, "https://player.example:8443"]
            """);

        assertEquals(1500, settings.clientTimeoutMs());
        assertEquals(2000, settings.openTimeoutMs());
        assertEquals(16 * 1024, settings.maxClientFrameBytes());
        assertEquals(8, settings.maxUnansweredSeeks());
        assertEquals(List.of("same-origin", "https://player.example:8443"), settings.allowedOrigins());
        assertEquals(StreamSettings.defaults(), load("streams:\n  writeBufferLow: 512K\n"));
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertRefused("streams:\n  clientTimeout: forever\n", "streams.clientTimeout must be a duration");
        assertRefused("streams:\n  openTimeout: 0s\n", "streams.openTimeout must be a duration");
        assertRefused("streams:\n  maxClientFrame: 100\n", "streams.maxClientFrame must be between 256 bytes");
        assertRefused("streams:\n  maxClientFrame: 17M\n", "streams.maxClientFrame must be between 256 bytes");
        assertRefused("streams:\n  maxUnansweredSeeks: 0\n", "streams.maxUnansweredSeeks must be positive");
        assertRefused("streams:\n  allowedOrigins: [example.com]\n", "streams.allowedOrigins must list same-origin");
        assertRefused("streams:\n  allowedOrigins: [\"https://a.example/player\"]\n", "had 'https://a.example/player'");
    }
}
