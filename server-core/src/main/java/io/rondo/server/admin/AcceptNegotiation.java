package io.rondo.server.admin;

import java.util.Locale;

/**
 * Whether a reply's type is one the request's {@code Accept} takes (RFC 9110 Section 12.5.1): a
 * successful reply of a type it refuses becomes a 406 problem.
 */
final class AcceptNegotiation {

    private AcceptNegotiation() {
    }

    /** {@code reply}, or a 406 problem if it succeeded with a body {@code accept} does not take. */
    static ApiReply negotiate(String accept, ApiReply reply) {
        if (reply.contentType() != null && reply.status() < 300 && !accepts(accept, reply.contentType())) {
            return ApiReply.problem(Problem.notAcceptable("this resource is " + baseType(reply.contentType())
                + ", which Accept: " + accept + " does not take"));
        }
        return reply;
    }

    /**
     * Whether an {@code Accept} header takes {@code contentType}: no header, {@code * / *}, the type's
     * {@code type/*} or the type itself, with a quality above zero.
     */
    static boolean accepts(String accept, String contentType) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        String type = baseType(contentType);
        String family = type.substring(0, type.indexOf('/') + 1) + "*";
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String media = parts[0].trim().toLowerCase(Locale.ROOT);
            boolean refused = false;
            for (int i = 1; i < parts.length; i++) {
                String parameter = parts[i].trim().toLowerCase(Locale.ROOT);
                if (parameter.startsWith("q=")) {
                    try {
                        refused = Double.parseDouble(parameter.substring(2)) <= 0;
                    } catch (NumberFormatException e) {
                        refused = true;
                    }
                }
            }
            if (!refused && (media.equals("*/*") || media.equals(family) || media.equals(type))) {
                return true;
            }
        }
        return false;
    }

    private static String baseType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }
}
