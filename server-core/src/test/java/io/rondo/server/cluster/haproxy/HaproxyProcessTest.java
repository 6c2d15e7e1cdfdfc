package io.rondo.server.cluster.haproxy;

import io.rondo.scheduler.time.SystemClocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HAProxy as a child process: it answers once started, is gone with its worker once closed, and a configuration it
 * refuses fails the start with HAProxy's own words. Skipped, saying so, where haproxy is not installed, unless
 * {@code -Drondo.haproxy.required=true}.
 */
class HaproxyProcessTest {

    @Test
    void itAcceptsOnceStartedAndNothingListensOnceClosed(@TempDir Path folder) throws IOException {
        HaproxyBinary binary = InstalledHaproxy.binary();
        int port = HaproxyProcess.freeLoopbackPort();
        Path cfg = Files.writeString(folder.resolve("front.cfg"), """
            defaults
                mode http
                timeout connect 1s
                timeout client 5s
                timeout server 5s
            frontend front
                bind 127.0.0.1:%d
                http-request return status 200
            """.formatted(port));
        HaproxyProcess haproxy = HaproxyProcess.start(binary, cfg, port, SystemClocks.nanoClock());
        assertTrue(accepts(port));
        assertTrue(Files.exists(folder.resolve("front.log")), "what it prints goes beside its configuration");
        haproxy.close();
        assertFalse(accepts(port), "its worker still listens after close");
    }

    @Test
    void aConfigurationItRefusesFailsTheStartWithWhatItSaid(@TempDir Path folder) throws IOException {
        HaproxyBinary binary = InstalledHaproxy.binary();
        int port = HaproxyProcess.freeLoopbackPort();
        Path cfg = Files.writeString(folder.resolve("haproxy.cfg"), """
            frontend front
                bind 127.0.0.1:%d
                no-such-keyword here
            """.formatted(port));
        IOException failure = assertThrows(IOException.class,
            () -> HaproxyProcess.start(binary, cfg, port, SystemClocks.nanoClock()));
        assertTrue(failure.getMessage().contains("no-such-keyword"), failure.getMessage());
    }

    private static boolean accepts(int port) {
        try {
            new Socket(InetAddress.getLoopbackAddress(), port).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
