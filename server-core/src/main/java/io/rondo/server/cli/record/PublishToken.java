package io.rondo.server.cli.record;

import io.rondo.server.admin.AdminTokens;
import io.rondo.server.cli.admin.TokenFiles;
import io.rondo.server.config.RondoConfig;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The token {@code rondo record} shows the server, found as {@code rondo admin} finds its own:
 * {@code --token}, else {@code $RONDO_PUBLISH_TOKEN}, else the publish token file {@code rondo serve}
 * wrote at its first start ({@code admin.publishTokenFile}, else the first storage root's, or
 * {@code --data}'s, {@code rondo/publish.token}).
 *
 * @param token  the token
 * @param source where it came from, for a refusal's message
 */
record PublishToken(String token, String source) {

    /**
     * Finds the token.
     *
     * @param option   {@code --token}, or null
     * @param env      the environment
     * @param settings the configuration, read only when neither the option nor the environment gives a token
     * @param data     {@code --data}, or null for the configuration's first storage root
     * @throws IllegalArgumentException saying what to give, if none is found
     */
    static PublishToken find(String option, Map<String, String> env, Supplier<RondoConfig> settings, Path data) {
        if (option != null) {
            return new PublishToken(TokenFiles.checked(option.trim(), "--token"), "--token");
        }
        String fromEnv = env.get(AdminTokens.PUBLISH_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            String source = "$" + AdminTokens.PUBLISH_ENV;
            return new PublishToken(TokenFiles.checked(fromEnv.trim(), source), source);
        }
        RondoConfig config = settings.get();
        Path root = (data != null ? data : config.storageRoots().get(0)).toAbsolutePath().normalize();
        Path file = AdminTokens.publishFile(config.adminSettings(), root);
        return new PublishToken(TokenFiles.read(file, "publish", "--token TOKEN, --data DIR or $"
            + AdminTokens.PUBLISH_ENV), file.toString());
    }
}
