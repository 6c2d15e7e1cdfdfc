package io.rondo.server.cli.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a token as the commands that talk to a server find it: from the file {@code rondo serve}
 * wrote at its first start, or from an environment variable. Every failure says which token, where,
 * and what to give instead.
 */
public final class TokenFiles {

    private TokenFiles() {
    }

    /**
     * The token in {@code file}.
     *
     * @param file  where the token is
     * @param which the token's name, {@code admin} or {@code publish}
     * @param other what the command takes instead, e.g. {@code --token-file FILE, --data DIR or $RONDO_ADMIN_TOKEN}
     * @throws IllegalArgumentException saying why, if the file is missing, unreadable, or holds no token
     */
    public static String read(Path file, String which, String other) {
        String token;
        try {
            token = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no " + which + " token at " + file + ": rondo serve writes it at its "
                + "first start on that storage root; give " + other, e);
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException("cannot read the " + which + " token in " + file + ": permission "
                + "denied (it is readable by the user rondo serve runs as)", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the " + which + " token in " + file + ": "
                + e.getMessage(), e);
        }
        return checked(token, file.toString());
    }

    /**
     * {@code token} if it can be one: printable characters without spaces.
     *
     * @param token  the token as given
     * @param source where it came from, for the message
     * @throws IllegalArgumentException if it cannot be a token
     */
    public static String checked(String token, String source) {
        if (token.isEmpty() || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            throw new IllegalArgumentException(source + " does not hold a token: a token is printable characters "
                + "without spaces");
        }
        return token;
    }
}
