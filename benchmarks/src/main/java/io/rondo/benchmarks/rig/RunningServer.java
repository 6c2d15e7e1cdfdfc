package io.rondo.benchmarks.rig;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A Rondo the bench did not start ({@code --rondo URL}): before any load, it must answer the file
 * set's first and last files with their sizes, or the bench says how to ingest the set.
 */
public final class RunningServer {

    private static final Duration ASK_LIMIT = Duration.ofSeconds(10);

    private RunningServer() {
    }

    /**
     * The server's address, once it is seen to serve {@code set}.
     *
     * @throws IOException if the URL is not http://HOST:PORT/, the server does not answer, or it does
     *     not hold the set (the message says how to ingest it)
     */
    public static InetSocketAddress check(URI url, FileSet set) throws IOException {
        if (!"http".equals(url.getScheme()) || url.getHost() == null || url.getPort() < 0) {
            throw new IOException("--rondo wants http://HOST:PORT/, was " + url);
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(ASK_LIMIT).build();
        for (int index : new int[] {0, set.count() - 1}) {
            URI file = url.resolve("/" + set.names().get(index));
            HttpResponse<Void> response;
            try {
                response = client.send(HttpRequest.newBuilder(file).method("HEAD", HttpRequest.BodyPublishers.noBody())
                    .timeout(ASK_LIMIT).build(), HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                throw new IOException("the Rondo at " + url + " does not answer: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while asking " + url, e);
            }
            long length = response.headers().firstValueAsLong("content-length").orElse(-1);
            if (response.statusCode() != 200 || length != set.sizes()[index]) {
                throw new IOException("the Rondo at " + url + " answers " + file.getPath() + " with "
                    + response.statusCode() + " (" + length + " bytes), not the file set's " + set.sizes()[index]
                    + " bytes; ingest the set first: ./rondo ingest --data DATA " + set.folder() + "/f*.bin");
            }
        }
        return new InetSocketAddress(url.getHost(), url.getPort());
    }
}
