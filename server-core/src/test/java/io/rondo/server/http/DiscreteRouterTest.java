package io.rondo.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.rondo.content.model.MediaObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which answer each request gets, through the handler on an embedded channel: methods, paths, folders, info. */
class DiscreteRouterTest extends EmbeddedHttpTest {

    private static MediaObject note;

    @BeforeAll
    static void ingest() throws Exception {
        note = library.ingest("/docs/note.txt", "a note".getBytes(StandardCharsets.UTF_8));
        library.ingest("/docs/deep/a.bin", 1000, 1);
    }

    @Test
    void whatIsNotThereIs404WithTheReasonAndTheConnectionStaysOpen() {
        EmbeddedHttp.Answer object = http.get("/docs/nothing.txt");
        EmbeddedHttp.Answer folder = http.get("/nothing/");

        assertEquals(404, object.status());
        assertEquals("404 Not Found: no object is named /docs/nothing.txt\n", object.text());
        assertEquals("text/plain; charset=utf-8", object.header("content-type"));
        assertEquals(String.valueOf(object.body().length), object.header("content-length"));
        assertEquals(404, folder.status());
        assertEquals("404 Not Found: no folder /nothing/\n", folder.text());
        assertTrue(http.channel.isOpen(), "a 404 keeps a kept-alive connection");
    }

    @Test
    void everyMethodButGetAndHeadIs405WithAllow() {
        for (HttpMethod method : List.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.OPTIONS)) {
            EmbeddedHttp.Answer answer = http.exchange(EmbeddedHttp.request(method, "/docs/note.txt"));

            assertEquals(405, answer.status(), method.name());
            assertEquals("GET, HEAD", answer.header("allow"));
            assertEquals("405 Method Not Allowed: only GET and HEAD are served here\n", answer.text());
        }
    }

    @Test
    void aFolderIsAPageOfWhatItHoldsAndWithoutItsSlashItIsRedirected() {
        EmbeddedHttp.Answer page = http.get("/docs/");
        EmbeddedHttp.Answer noSlash = http.get("/docs");

        assertEquals(200, page.status());
        assertEquals("text/html; charset=utf-8", page.header("content-type"));
        assertEquals("no-cache", page.header("cache-control"));
        assertTrue(page.text().contains("href=\"/docs/note.txt\"") && page.text().contains("href=\"/docs/deep/\""),
            page.text());
        assertEquals(String.valueOf(page.body().length), page.header("content-length"));
        assertEquals(301, noSlash.status());
        assertEquals("/docs/", noSlash.header("location"));
    }

    @Test
    void anObjectsInfoIsJsonForThePlayer() throws Exception {
        EmbeddedHttp.Answer info = http.get("/player/info/docs/note.txt");
        EmbeddedHttp.Answer missing = http.get("/player/info/docs/nothing.txt");

        assertEquals(200, info.status());
        assertEquals("application/json", info.header("content-type"));
        JsonNode json = new ObjectMapper().readTree(info.body());
        assertEquals("/docs/note.txt", json.get("name").asText());
        assertEquals("discrete", json.get("kind").asText());
        assertEquals(note.etag(), json.get("etag").asText());
        assertEquals(404, missing.status());
        assertEquals("404 Not Found: no object is named /docs/nothing.txt\n", missing.text());
        assertEquals(0, http.chunks.asked(), "an object's info is the catalog's: no disk read");
    }

    @Test
    void aPathThatIsNotAnAbsolutePathIsABadRequest() {
        EmbeddedHttp.Answer relative = http.get("docs/note.txt");
        EmbeddedHttp.Answer badEncoding = http.get("/docs/%zz");
        EmbeddedHttp.Answer backslash = http.get("/docs%5Cnote.txt");

        assertEquals("400 Bad Request: the path is not an absolute path\n", relative.text());
        assertEquals("400 Bad Request: the path is not valid URL encoding\n", badEncoding.text());
        assertEquals(400, backslash.status());
    }

    @Test
    void aRequestTheDecoderRefusedIsAnsweredWithWhyAndTheConnectionClosed() {
        assertEquals(414, refused(new TooLongHttpLineException("line")));
        assertEquals(431, refused(new TooLongHttpHeaderException("headers")));
        assertEquals(413, refused(new TooLongFrameException("body")));
        assertEquals(400, refused(new IllegalArgumentException("garbage")));
    }

    private int refused(Exception cause) {
        EmbeddedHttp refused = new EmbeddedHttp(library, new HotObjects());
        FullHttpRequest request = EmbeddedHttp.request(HttpMethod.GET, "/bad");
        request.setDecoderResult(DecoderResult.failure(cause));
        EmbeddedHttp.Answer answer = refused.exchange(request);
        assertEquals("close", answer.header("connection"));
        assertFalse(refused.channel.isOpen(), "closed once the answer is written");
        refused.close();
        return answer.status();
    }

    @Test
    void aHeadSaysTheLengthAGetWouldHaveAndSendsNoBody() {
        for (String uri : List.of("/docs/", "/player/info/docs/note.txt", "/docs/nothing.txt")) {
            EmbeddedHttp.Answer get = http.get(uri);
            EmbeddedHttp.Answer head = http.exchange(EmbeddedHttp.request(HttpMethod.HEAD, uri));

            assertEquals(get.status(), head.status(), uri);
            assertEquals(String.valueOf(get.body().length), head.header("content-length"), uri);
            assertEquals(0, head.body().length, uri);
        }
    }
}
