package io.rondo.server.stream;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which pages may open a WebSocket stream. */
class AllowedOriginsTest {

    @Test
    void sameOriginLetsInTheServersOwnPagesAndProgramsOnly() {
        AllowedOrigins origins = new AllowedOrigins(List.of("same-origin"));
        assertTrue(origins.allows(null, "rondo.example:8080"), "no Origin: not a browser's page");
        assertTrue(origins.allows("http://rondo.example:8080", "rondo.example:8080"));
        assertTrue(origins.allows("http://Rondo.Example", "rondo.example:80"), "default port, any case");
        assertTrue(origins.allows("https://rondo.example", "rondo.example"), "https's default port");
        assertTrue(origins.allows("http://[::1]:8080", "[::1]:8080"));
        assertFalse(origins.allows("http://evil.example:8080", "rondo.example:8080"));
        assertFalse(origins.allows("http://rondo.example:8081", "rondo.example:8080"));
        assertFalse(origins.allows("null", "rondo.example:8080"), "a sandboxed or file page");
        assertFalse(origins.allows("http://rondo.example:8080", null));
    }

    @Test
    void listedOriginsAndAnyOrigin() {
        AllowedOrigins listed = new AllowedOrigins(List.of("https://player.example:8443"));
        assertTrue(listed.allows("https://PLAYER.example:8443", "rondo.example"));
        assertFalse(listed.allows("http://player.example:8443", "rondo.example"), "another scheme");
        assertFalse(listed.allows("http://rondo.example", "rondo.example"), "same-origin is not listed");
        assertTrue(new AllowedOrigins(List.of("*")).allows("null", "rondo.example"));
    }
}
