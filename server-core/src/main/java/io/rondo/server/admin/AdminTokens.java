package io.rondo.server.admin;

import io.rondo.server.config.AdminSettings;

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
 * The server's bearer tokens (RFC 6750): one with the {@code admin} scope, one with the
 * {@code read} scope, and one with the {@code publish} scope, which records live streams (a stream
 * port's PUBLISH) and may do nothing else, so an encoder's machine holds no token that reads or
 * changes the server. Each comes from its environment variable, else from its file; a missing file
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
    /** The environment variable that sets the publish token. */
    public static final String PUBLISH_ENV = "RONDO_PUBLISH_TOKEN";
    /** The publish token's file in a data folder unless {@code admin.publishTokenFile} names another. */
    public static final String PUBLISH_FILE = "rondo/publish.token";
    /** The admin token's file in a data folder unless {@code admin.tokenFile} names another. */
    public static final String ADMIN_FILE = "rondo/admin.token";
    /** The read token's file in a data folder unless {@code admin.readTokenFile} names another. */
    public static final String READ_FILE = "rondo/read.token";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String admin;
    private final byte[] adminDigest;
    private final byte[] readDigest;
    /** Null when there is no publish token: then only the admin token publishes. */
    private final byte[] publishDigest;
    private final Path adminFile;
    private final boolean adminWritten;

    private AdminTokens(String admin, String read, String publish, Path adminFile, boolean adminWritten) {
        this.admin = admin;
        this.adminDigest = digest(admin);
        this.readDigest = digest(read);
        this.publishDigest = publish == null ? null : digest(publish);
        this.adminFile = adminFile;
        this.adminWritten = adminWritten;
    }

    /** Tokens given as they are (tests, embedders), without a publish token: only the admin token publishes. */
    public static AdminTokens of(String admin, String read) {
        return new AdminTokens(admin, read, null, null, false);
    }

    /** Tokens given as they are (tests, embedders). */
    public static AdminTokens of(String admin, String read, String publish) {
        return new AdminTokens(admin, read, publish, null, false);
    }

    /**
     * The tokens of a server: each from {@code env}'s variable, else its file, which is written
     * with a new token if missing.
     */
    public static AdminTokens load(Path adminFile, Path readFile, Path publishFile, Map<String, String> env)
        throws IOException {
        boolean written = !env.containsKey(ADMIN_ENV) && !Files.exists(adminFile);
        String admin = env.containsKey(ADMIN_ENV) ? check(env.get(ADMIN_ENV), ADMIN_ENV) : readOrCreate(adminFile);
        String read = env.containsKey(READ_ENV) ? check(env.get(READ_ENV), READ_ENV) : readOrCreate(readFile);
        String publish = env.containsKey(PUBLISH_ENV) ? check(env.get(PUBLISH_ENV), PUBLISH_ENV)
            : readOrCreate(publishFile);
        if (admin.equals(read) || admin.equals(publish) || read.equals(publish)) {
            throw new IllegalArgumentException("two of the admin, read and publish tokens are the same: give each "
                + "its own");
        }
        return new AdminTokens(admin, read, publish, env.containsKey(ADMIN_ENV) ? null : adminFile, written);
    }

    /**
     * The tokens of a server whose first data folder is {@code dataFolder}: the files the admin
     * settings name, else {@link #ADMIN_FILE}, {@link #READ_FILE} and {@link #PUBLISH_FILE} in it.
     */
    public static AdminTokens load(AdminSettings settings, Path dataFolder, Map<String, String> env)
        throws IOException {
        return load(adminFile(settings, dataFolder), orIn(settings.readTokenFile(), dataFolder, READ_FILE),
            publishFile(settings, dataFolder), env);
    }

    /** The admin token's file: {@code admin.tokenFile}, else {@link #ADMIN_FILE} in the data folder. */
    public static Path adminFile(AdminSettings settings, Path dataFolder) {
        return orIn(settings.tokenFile(), dataFolder, ADMIN_FILE);
    }

    /** The publish token's file: {@code admin.publishTokenFile}, else {@link #PUBLISH_FILE} in the data folder. */
    public static Path publishFile(AdminSettings settings, Path dataFolder) {
        return orIn(settings.publishTokenFile(), dataFolder, PUBLISH_FILE);
    }

    private static Path orIn(Path configured, Path dataFolder, String name) {
        return configured != null ? configured : dataFolder.resolve(name);
    }

    /** The file the admin token is in, or null if it came from the environment. */
    public Path adminFile() {
        return adminFile;
    }

    /**
     * The admin token itself, which the nodes of a cluster share (one {@code admin.tokenFile}) to
     * copy objects to each other and read each other's listings.
     */
    public String nodeToken() {
        return admin;
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
        boolean publish = isPublishToken(given);
        if (admin) {
            return Scope.ADMIN;
        }
        if (read) {
            return Scope.READ;
        }
        if (publish) {
            return Scope.PUBLISH;
        }
        throw Problem.unauthorized("the token is not one this server knows", true);
    }

    /**
     * True if {@code token} may record a live stream: the publish token or the admin token. A PUBLISH
     * carries its token bare, not as an {@code Authorization} header.
     *
     * @param token the token as given; null or empty is never valid
     */
    public boolean canPublish(String token) {
        if (token == null || token.isEmpty()) {
            return false;
        }
        byte[] given = digest(token);
        boolean admin = MessageDigest.isEqual(given, adminDigest);
        boolean publish = isPublishToken(given);
        return admin | publish;
    }

    private boolean isPublishToken(byte[] given) {
        return publishDigest != null && MessageDigest.isEqual(given, publishDigest);
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
