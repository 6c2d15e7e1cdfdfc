package io.rondo.server.admin;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The cursor of a page of objects: the name of the last object of the page before, base64url
 * without padding, so that it is opaque and safe in a query.
 */
final class ObjectCursor {

    private ObjectCursor() {
    }

    /** The cursor of the page after the object {@code name}. */
    static String after(String name) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(name.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The name {@code cursor} says the page starts after, or null for the first page.
     *
     * @throws Problem 400 if it is no cursor this API gave
     */
    static String name(String cursor) {
        if (cursor == null) {
            return null;
        }
        try {
            String name = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (name.startsWith("/")) {
                return name;
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw Problem.invalid("cursor", "cursor is the 'next' of the page before, was '" + cursor + "'");
    }
}
