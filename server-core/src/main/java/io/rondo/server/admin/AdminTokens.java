package io.rondo.server.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

/**
 * The admin port's bearer tokens (RFC 6750): one with the {@code admin} scope, one with the
 * {@code read} scope. Each comes from its environment variable, else from its file; a missing file
 * is written with a new random token (256 bits, base64url), readable by its owner only (0600), so
 * the first start of a server is administered at once by whoever can read the storage root.
 *
 * <p>Tokens are compared by their SHA-256 digests with {@link MessageDigest#isEqual}, which takes
 * the same time wherever two digests differ: the time an answer takes tells nothing of the token.
 */
public final class AdminTokens {

    /** The environment variable that sets the admin token. */
    public static final String ADMIN_ENV = "RONDO_ADMIN_TOKEN";
    /** The environment variable that sets the read token. */
    public static final String READ_ENV = "RONDO_READ_TOKEN";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] adminDigest;
    private final byte[] readDigest;
    private final Path adminFile;
    private final boolean adminWritten;

    private AdminTokens(String admin, String read, Path adminFile, boolean adminWritten) {
        this.adminDigest = digest(admin);
        this.readDigest = digest(read);
        this.adminFile = adminFile;
        this.adminWritten = adminWritten;
    }

    /** Tokens given as they are (tests, embedders). */
    public static AdminTokens of(String admin, String read) {
        return new AdminTokens(admin, read, null, false);
    }

    /**
     * The tokens of a server: each from {@code env}'s variable, else its file, which is written
     * with a new token if missing.
     */
    public static AdminTokens load(Path adminFile, Path readFile, Map<String, String> env) throws IOException {
        boolean written = !env.containsKey(ADMIN_ENV) && !Files.exists(adminFile);
        String admin = env.containsKey(ADMIN_ENV) ? check(env.get(ADMIN_ENV), ADMIN_ENV) : readOrCreate(adminFile);
        String read = env.containsKey(READ_ENV) ? check(env.get(READ_ENV), READ_ENV) : readOrCreate(readFile);
        if (admin.equals(read)) {
            throw new IllegalArgumentException("the admin token and the read token are the same: give each its own");
        }
        return new AdminTokens(admin, read, env.containsKey(ADMIN_ENV) ? null : adminFile, written);
    }

    /** The file the admin token is in, or null if it came from the environment. */
    public Path adminFile() {
        return adminFile;
    }

    /** True if this start wrote a new admin token file. */
    public boolean adminWritten() {
        return adminWritten;
    }

    /**
     * The scope an {@code Authorization} header grants: {@link Scope#PUBLIC} without one.
     *
     * @throws Problem 401 for a header that is not a bearer token, or a token Rondo does not know
     */
    public Scope scopeOf(String authorization) {
        if (authorization == null) {
            return Scope.PUBLIC;
        }
        String value = authorization.trim();
        if (value.length() < 7 || !value.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            throw Problem.unauthorized("the Authorization header must be 'Bearer TOKEN'", true);
        }
        byte[] given = digest(value.substring(7).trim());
        boolean admin = MessageDigest.isEqual(given, adminDigest);
        boolean read = MessageDigest.isEqual(given, readDigest);
        if (admin) {
            return Scope.ADMIN;
        }
        if (read) {
            return Scope.READ;
        }
        throw Problem.unauthorized("the token is not one this server knows", true);
    }

    private static String readOrCreate(Path file) throws IOException {
        if (Files.exists(file)) {
            return check(Files.readString(file, StandardCharsets.UTF_8).trim(), file.toString());
        }
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        try {
            Files.createFile(partial,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(partial);
        }
        Files.writeString(partial, token + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            Files.deleteIfExists(partial);
            return readOrCreate(file);
        }
        return token;
    }

    private static String check(String token, String source) {
        if (token == null || token.length() < 16 || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            throw new IllegalArgumentException(source + ": a token must be at least 16 printable characters "
                + "without spaces");
        }
        return token;
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
