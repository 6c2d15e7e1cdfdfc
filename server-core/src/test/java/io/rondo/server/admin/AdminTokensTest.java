package io.rondo.server.admin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin port's tokens as an operator meets them: written once, kept, overridden by the environment. */
class AdminTokensTest {

    @TempDir
    Path dir;

    @Test
    void theFirstStartWritesTokensOnlyItsOwnerCanReadAndLaterStartsKeepThem() throws Exception {
        Path admin = dir.resolve("rondo/admin.token");
        Path read = dir.resolve("rondo/read.token");
        AdminTokens first = AdminTokens.load(admin, read, Map.of());
        assertTrue(first.adminWritten());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(admin)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(read)));
        String adminToken = Files.readString(admin).trim();
        String readToken = Files.readString(read).trim();
        assertTrue(adminToken.length() >= 43, "256 random bits");
        assertEquals(Scope.ADMIN, first.scopeOf("Bearer " + adminToken));
        assertEquals(Scope.READ, first.scopeOf("bearer " + readToken));

        AdminTokens again = AdminTokens.load(admin, read, Map.of());
        assertFalse(again.adminWritten());
        assertEquals(Scope.ADMIN, again.scopeOf("Bearer " + adminToken), "the same token after a restart");
    }

    @Test
    void theEnvironmentOverridesTheFile() throws Exception {
        AdminTokens tokens = AdminTokens.load(dir.resolve("admin.token"), dir.resolve("read.token"),
            Map.of(AdminTokens.ADMIN_ENV, "from-the-environment-0123"));
        assertNull(tokens.adminFile());
        assertFalse(Files.exists(dir.resolve("admin.token")));
        assertEquals(Scope.ADMIN, tokens.scopeOf("Bearer from-the-environment-0123"));
        assertThrows(IllegalArgumentException.class, () -> AdminTokens.load(dir.resolve("a"), dir.resolve("b"),
            Map.of(AdminTokens.ADMIN_ENV, "short")), "a guessable token is refused");
    }

    @Test
    void noHeaderIsPublicAndAnythingElseUnknownIsRefused() {
        AdminTokens tokens = AdminTokens.of("admin-token-0123456789", "read-token-0123456789");
        assertEquals(Scope.PUBLIC, tokens.scopeOf(null));
        assertEquals(401, assertThrows(Problem.class, () -> tokens.scopeOf("Bearer admin-token-012345678")).status());
        assertEquals(401, assertThrows(Problem.class, () -> tokens.scopeOf("Token admin-token-0123456789")).status());
        assertTrue(Scope.ADMIN.allows(Scope.READ));
        assertFalse(Scope.READ.allows(Scope.ADMIN));
    }
}
