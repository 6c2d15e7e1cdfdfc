package io.rondo.server.admin;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A self-signed certificate for 127.0.0.1 and its PKCS#8 key, as PEM files made by openssl the way
 * an operator makes {@code admin.tls.cert} and {@code admin.tls.key}. A test without openssl is
 * skipped, saying so.
 *
 * @param cert the PEM certificate
 * @param key  its PEM private key
 */
public record TestCertificate(Path cert, Path key) {

    /** Makes {@code admin.crt} and {@code admin.key} in {@code dir}. */
    public static TestCertificate make(Path dir) throws IOException, InterruptedException {
        Path cert = dir.resolve("admin.crt");
        Path key = dir.resolve("admin.key");
        Process openssl;
        try {
            openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key.toString(),
                "-out", cert.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("openssl is not installed: " + e.getMessage());
            throw e;
        }
        String said = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(openssl.waitFor(60, TimeUnit.SECONDS) && openssl.exitValue() == 0, said);
        return new TestCertificate(cert, key);
    }
}
