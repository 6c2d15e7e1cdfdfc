package io.rondo.benchmarks.rig;

import io.rondo.scheduler.time.SystemClocks;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** nginx as the bench runs it: each variant serves the file set's bytes on its own loopback port, and stops. */
class NginxTest {

    @Test
    void eachVariantServesTheSameBytes(@TempDir Path folder) throws Exception {
        String missing = "nginx is not installed at " + Nginx.binary() + " (apt-get install nginx-light)";
        if (Boolean.getBoolean("rondo.nginx.required")) {
            assertTrue(Nginx.available(), missing);
        }
        Assumptions.assumeTrue(Nginx.available(), missing + "; skipping");
        FileSet set = FileSet.make(folder.resolve("files"), 3, 20_000, 5_000, 7);
        HttpClient client = HttpClient.newHttpClient();
        for (Nginx.Variant variant : Nginx.Variant.values()) {
            Nginx nginx = Nginx.start(set.folder(), variant, folder.resolve(variant.label()), SystemClocks.nanoClock());
            try (nginx) {
                assertEquals("127.0.0.1", nginx.address().getHostString());
                for (int i = 0; i < set.count(); i++) {
                    HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(
                        URI.create(nginx.url() + set.names().get(i))).build(), HttpResponse.BodyHandlers.ofByteArray());
                    assertEquals(200, response.statusCode(), variant.label());
                    assertArrayEquals(Files.readAllBytes(set.path(i)), response.body(), variant.label());
                }
                HttpResponse<Void> notFound = client.send(HttpRequest.newBuilder(URI.create(nginx.url() + "nope"))
                    .build(), HttpResponse.BodyHandlers.discarding());
                assertEquals(404, notFound.statusCode());
            }
            assertFalse(Nginx.accepts(nginx.address()), variant.label() + " still listens after close");
        }
    }

    @Test
    void theConfigurationSaysHowEachVariantReads() {
        String sendfile = Nginx.configuration(Path.of("/srv/files"), Nginx.Variant.SENDFILE, 18090, Path.of("/p"));
        assertTrue(sendfile.contains("listen 127.0.0.1:18090"));
        assertTrue(sendfile.contains("root /srv/files;"));
        assertTrue(sendfile.contains("sendfile on;") && sendfile.contains("open_file_cache"));
        String directio = Nginx.configuration(Path.of("/srv/files"), Nginx.Variant.DIRECTIO, 18091, Path.of("/p"));
        assertTrue(directio.contains("directio 4k;") && directio.contains("aio threads;"));
        assertTrue(directio.contains("sendfile off;"));
        assertTrue(directio.contains("access_log off;"));
    }

    @Test
    void variantsAreNamedAsPeopleWriteThem() {
        assertEquals(Nginx.Variant.SENDFILE, Nginx.Variant.parse("sendfile"));
        assertEquals(Nginx.Variant.DIRECTIO, Nginx.Variant.parse("nginx-directio"));
        assertEquals(Nginx.Variant.DIRECTIO, Nginx.Variant.parse(" DirectIO "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Nginx.Variant.parse("aio"));
        assertTrue(e.getMessage().contains("choose sendfile or directio"));
    }
}
