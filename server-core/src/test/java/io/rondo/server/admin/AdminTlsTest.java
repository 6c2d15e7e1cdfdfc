package io.rondo.server.admin;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.ConnectionLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin port over TLS ({@code admin.tls}), with a certificate openssl makes as an operator would. */
class AdminTlsTest {

    @TempDir
    Path dir;

    @Test
    void theAdminPortSpeaksTlsWithThePemFilesItIsGiven() throws Exception {
        TestCertificate certificate = TestCertificate.make(dir);
        Path cert = certificate.cert();
        Path key = certificate.key();

        AdminRouter router = new AdminRouter().add(Route.sync("GET", "/healthz", Scope.PUBLIC,
            request -> ApiReply.ok(Map.of("status", "ok"))));
        try (AdminServer server = AdminServer.start(new InetSocketAddress("127.0.0.1", 0), router,
                 AdminTokens.of("admin-token-0123456789", "read-token-0123456789"), new RondoMetrics(), 1024, cert,
                 key, HttpSettings.DEFAULT_HEADER_TIMEOUT_MS, SystemClocks.utc(), SystemClocks.nanoClock(),
                 ConnectionLimit.unlimited("admin"))) {
            assertTrue(server.url().startsWith("https://127.0.0.1:"), server.url());
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            try (InputStream in = Files.newInputStream(cert)) {
                trusted.setCertificateEntry("rondo", CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(5))
                .build();
            HttpResponse<String> health = client.send(HttpRequest.newBuilder(URI.create(server.url() + "/healthz"))
                .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode());
            assertEquals("{\"status\":\"ok\"}", health.body());

            String plain = server.url().replace("https://", "http://") + "/healthz";
            assertThrows(java.io.IOException.class, () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(plain)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()),
                "plain HTTP gets no answer from a TLS port");
        }
    }

    @Test
    void aMissingCertificateIsNamed() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> AdminServer.start(
            new InetSocketAddress("127.0.0.1", 0), new AdminRouter(), AdminTokens.of("admin-token-0123456789",
                "read-token-0123456789"), new RondoMetrics(), 1024, dir.resolve("none.crt"), dir.resolve("none.key"),
                HttpSettings.DEFAULT_HEADER_TIMEOUT_MS, SystemClocks.utc(), SystemClocks.nanoClock(),
                ConnectionLimit.unlimited("admin")));
        assertTrue(refused.getMessage().startsWith("admin.tls: cannot use"), refused.getMessage());
    }
}
