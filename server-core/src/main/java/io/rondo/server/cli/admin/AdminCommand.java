package io.rondo.server.cli.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.config.AdminSettings;
import io.rondo.server.config.RondoConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Locale;
import java.util.Map;

/**
 * {@code rondo admin}: a client of a running server's admin API. Its subcommands list the streams
 * and the disks' rounds, show and change the policy, end a stream and upload an object; the
 * options they share (where the server is, which token, JSON or tables) are here.
 */
@Command(name = "admin",
    description = {
        "Administer a running server through its admin API.",
        "A client of rondo serve's admin port (--admin-port): list the streams and the disks' rounds, show and "
            + "change the policy, end a stream, upload an object, list and stop the live recordings, drain the "
            + "server.",
        "",
        "The token is the admin token rondo serve wrote at its first start: --token-file FILE, else "
            + "$RONDO_ADMIN_TOKEN, else admin.tokenFile of the configuration, else "
            + "<first storage root>/rondo/admin.token (--data DIR names the root)."},
    mixinStandardHelpOptions = true,
    sortOptions = false,
    subcommands = {StreamsCommand.class, DisksCommand.class, PolicyCommand.class, KickCommand.class,
        SetCommand.class, UploadCommand.class, LiveCommand.class, DrainCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:Done.",
        "1:The server answered with an error; its detail is printed.",
        "2:Bad usage: an unknown option, key or value, or no token to send. Nothing was sent.",
        "3:The server could not be reached: is rondo serve running, and is --url its admin port?"})
public final class AdminCommand implements Runnable {

    static final int EXIT_OK = 0;
    static final int EXIT_ANSWERED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_UNREACHABLE = 3;

    /** rondo serve's --admin-port unless told otherwise. */
    static final int DEFAULT_PORT = 8081;

    @Spec
    private CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL", scope = ScopeType.INHERIT,
        description = "The admin port, http://HOST:PORT (default: http://127.0.0.1:" + DEFAULT_PORT
            + ", or the configuration's admin.address at that port; https if admin.tls is set).")
    private String url;

    @Option(names = "--token-file", paramLabel = "FILE", scope = ScopeType.INHERIT,
        description = "The file holding the admin token (default: $RONDO_ADMIN_TOKEN, else admin.tokenFile, else "
            + "<first storage root>/rondo/admin.token).")
    private Path tokenFile;

    @Option(names = "--cacert", paramLabel = "FILE", scope = ScopeType.INHERIT,
        description = "For an https URL, trust the certificates in this PEM file, such as the admin port's own "
            + "(default: admin.tls.cert of the configuration if set, else Java's trusted authorities).")
    private Path caCert;

    @Option(names = "--data", paramLabel = "DIR", scope = ScopeType.INHERIT,
        description = "The server's data folder, where its rondo/admin.token is (default: the first storage root "
            + "of the configuration).")
    private Path data;

    @Option(names = "--config", paramLabel = "FILE", scope = ScopeType.INHERIT,
        description = "The configuration file (default: config/rondo.yaml).")
    private Path config;

    @Option(names = "--json", scope = ScopeType.INHERIT,
        description = "Print the API's JSON as it answered, indented, instead of tables and lines; streams joins "
            + "every page into one. A command whose answer has no body prints nothing.")
    private boolean json;

    private final Map<String, String> env;
    private RondoConfig settings;
    private AdminClient client;

    /** The command as {@code rondo} runs it, reading the process's environment. */
    public AdminCommand() {
        this(System.getenv());
    }

    /** @param env the environment {@code RONDO_ADMIN_TOKEN} is read from */
    AdminCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** What a subcommand does once its arguments are read. */
    @FunctionalInterface
    interface Action {
        void run(PrintWriter out);
    }

    /**
     * Runs a subcommand's action: its failure becomes one line on standard error, starting with
     * the command's name, and the exit code; never a stack trace.
     */
    int run(CommandSpec command, Action action) {
        PrintWriter out = command.commandLine().getOut();
        PrintWriter err = command.commandLine().getErr();
        try {
            action.run(out);
            return EXIT_OK;
        } catch (AdminException e) {
            out.flush();
            err.println(command.qualifiedName() + ": " + e.getMessage());
            return e.exitCode();
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** True if the answers are to be printed as JSON. */
    boolean json() {
        return json;
    }

    /** Prints a JSON answer as {@code --json} does: indented. */
    static void printJson(PrintWriter out, JsonNode body) {
        try {
            out.println(AdminClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree is always written", e);
        }
    }

    /** The client of the admin port these options name, with its token. */
    AdminClient client() {
        if (client == null) {
            URI base = url == null ? defaultUrl() : parseUrl(url);
            SSLContext tls = null;
            if (base.getScheme().equals("https")) {
                Path trusted = caCert != null ? caCert : settings().adminSettings().tlsCert();
                tls = trusted == null ? null : trusting(trusted);
            }
            String fromEnv = env.get(AdminTokens.ADMIN_ENV);
            if (tokenFile == null && fromEnv != null && !fromEnv.isBlank()) {
                client = new AdminClient(base, checked(fromEnv.trim(), "$" + AdminTokens.ADMIN_ENV),
                    "$" + AdminTokens.ADMIN_ENV, tls);
            } else {
                Path file = tokenFile != null ? tokenFile : defaultTokenFile();
                client = new AdminClient(base, read(file), file.toString(), tls);
            }
        }
        return client;
    }

    /** The admin port of the configuration: admin.address (loopback for a wildcard) at the default port. */
    private URI defaultUrl() {
        AdminSettings admin = settings().adminSettings();
        String host = admin.address().trim();
        if (host.equals("0.0.0.0")) {
            host = "127.0.0.1";
        } else if (host.equals("::") || host.equals("[::]")) {
            host = "::1";
        }
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return parseUrl((admin.tls() ? "https" : "http") + "://" + host + ":" + DEFAULT_PORT);
    }

    /** {@code http://HOST:PORT}; the address serve prints, with {@code /api/v1/}, is taken too. */
    static URI parseUrl(String text) {
        String example = "--url is the admin port's address such as http://127.0.0.1:" + DEFAULT_PORT + ", was '"
            + text + "'";
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw AdminException.usage(example);
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceFirst("/+$", "");
        if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
            || uri.getHost() == null || !(path.isEmpty() || path.equals("/api/v1")) || uri.getRawQuery() != null
            || uri.getRawFragment() != null) {
            throw AdminException.usage(example);
        }
        return URI.create(uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getRawAuthority());
    }

    /** admin.tokenFile, else the first storage root's (or --data's) rondo/admin.token, as serve writes it. */
    private Path defaultTokenFile() {
        RondoConfig config = settings();
        Path root = data != null ? data : config.storageRoots().get(0);
        return AdminTokens.adminFile(config.adminSettings(), root.toAbsolutePath().normalize());
    }

    private RondoConfig settings() {
        if (settings == null) {
            try {
                settings = config == null ? RondoConfig.loadOrDefaults(RondoConfig.defaultFile())
                    : RondoConfig.load(config);
            } catch (IllegalArgumentException e) {
                throw AdminException.usage(e.getMessage());
            }
        }
        return settings;
    }

    /** A TLS context that trusts the certificates of a PEM file, and no others. */
    static SSLContext trusting(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int n = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("rondo-" + n++, certificate);
            }
            if (n == 0) {
                throw AdminException.usage(pem + " holds no certificate (PEM, -----BEGIN CERTIFICATE-----)");
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw AdminException.usage("cannot trust the certificates in " + pem + ": " + e.getMessage());
        }
    }

    static String read(Path file) {
        try {
            return TokenFiles.read(file, "admin", "--token-file FILE, --data DIR or $" + AdminTokens.ADMIN_ENV);
        } catch (IllegalArgumentException e) {
            throw AdminException.usage(e.getMessage());
        }
    }

    private static String checked(String token, String source) {
        try {
            return TokenFiles.checked(token, source);
        } catch (IllegalArgumentException e) {
            throw AdminException.usage(e.getMessage());
        }
    }
}
