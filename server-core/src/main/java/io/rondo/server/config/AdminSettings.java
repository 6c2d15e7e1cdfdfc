package io.rondo.server.config;

import java.nio.file.Path;

/**
 * The admin port's settings, {@code admin:} in {@code rondo.yaml}. Each key's default is the
 * constant beside it.
 *
 * @param address        {@code admin.address}: where the admin port listens (loopback unless said otherwise)
 * @param tokenFile      {@code admin.tokenFile}: the file holding the admin token, or null for
 *                       {@code <first storage root>/rondo/admin.token}, written at the first start
 * @param readTokenFile  {@code admin.readTokenFile}: the file holding the read token, or null for
 *                       {@code <first storage root>/rondo/read.token}, written at the first start
 * @param publishTokenFile {@code admin.publishTokenFile}: the file holding the publish token, or null for
 *                       {@code <first storage root>/rondo/publish.token}, written at the first start
 * @param metricsPublic  {@code admin.metricsPublic}: true lets {@code /metrics} be read without a token
 * @param maxUploadBytes {@code admin.maxUpload}: the largest object {@code PUT /api/v1/objects/NAME} takes
 * @param tlsCert        {@code admin.tls.cert}: a PEM certificate chain; with {@code tlsKey}, the admin port speaks TLS
 * @param tlsKey         {@code admin.tls.key}: the PEM private key (PKCS#8) of {@code tlsCert}
 */
public record AdminSettings(String address, Path tokenFile, Path readTokenFile, Path publishTokenFile,
                            boolean metricsPublic, long maxUploadBytes, Path tlsCert, Path tlsKey) {

    /** {@code admin.address}. */
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    /** {@code admin.metricsPublic}: {@code /metrics} takes a token. */
    public static final boolean DEFAULT_METRICS_PUBLIC = false;
    /** {@code admin.maxUpload}. */
    public static final long DEFAULT_MAX_UPLOAD = 64L << 30;

    /** Checks every value once. */
    public AdminSettings {
        if (address == null || address.isBlank()) {
            throw new IllegalArgumentException("admin.address must name an address, e.g. 127.0.0.1");
        }
        Settings.positive(maxUploadBytes, "admin.maxUpload");
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("admin.tls needs both cert and key (PEM files), or neither");
        }
    }

    /** The section as written: what it says, the defaults for the rest. */
    static AdminSettings read(Section written) {
        Tls tls = Settings.orDefault(written.tls(), Tls.EMPTY);
        return new AdminSettings(Settings.orDefault(written.address(), DEFAULT_ADDRESS),
            Settings.path(written.tokenFile()), Settings.path(written.readTokenFile()),
            Settings.path(written.publishTokenFile()),
            Settings.orDefault(written.metricsPublic(), DEFAULT_METRICS_PUBLIC),
            written.maxUpload() == null ? DEFAULT_MAX_UPLOAD : ByteSizes.parse(written.maxUpload(), "admin.maxUpload"),
            Settings.path(tls.cert()), Settings.path(tls.key()));
    }

    /** Every key at its default. */
    public static AdminSettings defaults() {
        return new AdminSettings(DEFAULT_ADDRESS, null, null, null, DEFAULT_METRICS_PUBLIC, DEFAULT_MAX_UPLOAD, null,
            null);
    }

    /** True if the admin port speaks TLS. */
    public boolean tls() {
        return tlsCert != null;
    }

    /** The same settings listening on {@code other}. */
    public AdminSettings withAddress(String other) {
        return new AdminSettings(other, tokenFile, readTokenFile, publishTokenFile, metricsPublic, maxUploadBytes,
            tlsCert, tlsKey);
    }

    /**
     * {@code admin:} as the file writes it; a key left out is null. Its connection limits are read
     * by {@link ConnectionSettings}.
     */
    record Section(String address, String tokenFile, String readTokenFile, String publishTokenFile,
                   Boolean metricsPublic, String maxUpload, Tls tls, String maxConnections,
                   String maxConnectionsPerAddress) {
        static final Section EMPTY = new Section(null, null, null, null, null, null, null, null, null);
    }

    /** {@code admin.tls:} as the file writes it; a key left out is null. */
    record Tls(String cert, String key) {
        static final Tls EMPTY = new Tls(null, null);
    }
}
