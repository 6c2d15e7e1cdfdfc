package io.rondo.server.admin;

import io.rondo.server.config.AdminSettings;
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
        Path publish = dir.resolve("rondo/publish.token");
        AdminTokens first = AdminTokens.load(AdminSettings.defaults(), dir, Map.of());
        assertTrue(first.adminWritten());
        assertEquals(admin, first.adminFile());
        for (Path file : new Path[] {admin, read, publish}) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), file + "");
        }
        String adminToken = Files.readString(admin).trim();
        String readToken = Files.readString(read).trim();
        String publishToken = Files.readString(publish).trim();
        assertTrue(adminToken.length() >= 43, "256 random bits");
        assertTrue(publishToken.length() >= 43, "256 random bits");
        assertEquals(Scope.ADMIN, first.scopeOf("Bearer " + adminToken));
        assertEquals(Scope.READ, first.scopeOf("bearer " + readToken));
        assertEquals(Scope.PUBLISH, first.scopeOf("Bearer " + publishToken));

        AdminTokens again = AdminTokens.load(admin, read, publish, Map.of());
        assertFalse(again.adminWritten());
        assertEquals(Scope.ADMIN, again.scopeOf("Bearer " + adminToken), "the same token after a restart");
        assertTrue(again.canPublish(publishToken), "the same publish token after a restart");
    }

    @Test
    void theEnvironmentOverridesTheFile() throws Exception {
        AdminTokens tokens = AdminTokens.load(dir.resolve("admin.token"), dir.resolve("read.token"),
            dir.resolve("publish.token"), Map.of(AdminTokens.ADMIN_ENV, "from-the-environment-0123",
                AdminTokens.PUBLISH_ENV, "publish-from-the-environment"));
        assertNull(tokens.adminFile());
        assertFalse(Files.exists(dir.resolve("admin.token")));
        assertFalse(Files.exists(dir.resolve("publish.token")));
        assertEquals(Scope.ADMIN, tokens.scopeOf("Bearer from-the-environment-0123"));
        assertTrue(tokens.canPublish("publish-from-the-environment"));
        assertThrows(IllegalArgumentException.class, () -> AdminTokens.load(dir.resolve("a"), dir.resolve("b"),
            dir.resolve("c"), Map.of(AdminTokens.ADMIN_ENV, "short")), "a guessable token is refused");
        assertThrows(IllegalArgumentException.class, () -> AdminTokens.load(dir.resolve("a"), dir.resolve("b"),
            dir.resolve("c"), Map.of(AdminTokens.ADMIN_ENV, "the-same-token-twice", AdminTokens.PUBLISH_ENV,
                "the-same-token-twice")), "a publish token that is the admin token is refused");
    }

    @Test
    void aConfiguredPublishTokenFileIsWhereTheTokenIs() throws Exception {
        Path elsewhere = dir.resolve("etc/publish.token");
        AdminSettings settings = new AdminSettings(AdminSettings.DEFAULT_ADDRESS, null, null, elsewhere, false,
            AdminSettings.DEFAULT_MAX_UPLOAD, null, null);
        assertEquals(elsewhere, AdminTokens.publishFile(settings, dir));
        assertEquals(dir.resolve("rondo/publish.token"), AdminTokens.publishFile(AdminSettings.defaults(), dir));
        AdminTokens tokens = AdminTokens.load(settings, dir, Map.of());
        assertTrue(tokens.canPublish(Files.readString(elsewhere).trim()));
        assertFalse(Files.exists(dir.resolve("rondo/publish.token")));
    }

    @Test
    void onlyThePublishAndTheAdminTokensPublish() {
        AdminTokens tokens = AdminTokens.of("admin-token-0123456789", "read-token-0123456789",
            "publish-token-0123456789");
        assertTrue(tokens.canPublish("publish-token-0123456789"));
        assertTrue(tokens.canPublish("admin-token-0123456789"));
        assertFalse(tokens.canPublish("read-token-0123456789"));
        assertFalse(tokens.canPublish("publish-token-012345678"));
        assertFalse(tokens.canPublish(""));
        assertFalse(tokens.canPublish(null));
        assertEquals(Scope.PUBLISH, tokens.scopeOf("Bearer publish-token-0123456789"));

        AdminTokens withoutPublish = AdminTokens.of("admin-token-0123456789", "read-token-0123456789");
        assertTrue(withoutPublish.canPublish("admin-token-0123456789"));
        assertFalse(withoutPublish.canPublish("read-token-0123456789"));
    }

    @Test
    void thePublishScopeAllowsPublishingAndNothingElse() {
        assertTrue(Scope.PUBLISH.allows(Scope.PUBLISH));
        assertTrue(Scope.PUBLISH.allows(Scope.PUBLIC));
        assertFalse(Scope.PUBLISH.allows(Scope.READ), "the publish token reads nothing");
        assertFalse(Scope.PUBLISH.allows(Scope.ADMIN));
        assertFalse(Scope.READ.allows(Scope.PUBLISH), "the read token does not publish");
        assertTrue(Scope.ADMIN.allows(Scope.PUBLISH));
        assertFalse(Scope.PUBLIC.allows(Scope.PUBLISH));
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
