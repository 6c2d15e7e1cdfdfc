package io.rondo.client;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** rondo://HOST:PORT/NAME, as a person writes it. */
class StreamUrlTest {

    @Test
    void aUrlNamesTheStreamPortAndTheObject() {
        assertEquals(new StreamUrl("127.0.0.1", 8554, "videos/a b.webm"),
            StreamUrl.parse("rondo://127.0.0.1:8554/videos/a%20b.webm"));
        assertEquals("127.0.0.1:8554", StreamUrl.parse("rondo://127.0.0.1:8554/a.webm").address());
    }

    @Test
    void aNameIsTakenAsLsPrintsItWithSpacesBracketsAndAccents() {
        assertEquals(new StreamUrl("127.0.0.1", 9, "videos/my clip [hd].webm"),
            StreamUrl.parse("rondo://127.0.0.1:9/videos/my clip [hd].webm"));
        assertEquals(new StreamUrl("127.0.0.1", 9, "caf\u00e9 100%.webm"),
            StreamUrl.parse("rondo://127.0.0.1:9/caf\u00e9 100%.webm"));
        assertEquals(new StreamUrl("::1", 9, "a b.webm"), StreamUrl.parse("rondo://[::1]:9/a b.webm"));
        assertEquals(new StreamUrl("h", 9, "a%b.webm"), StreamUrl.parse("rondo://h:9/a%25b.webm"), "escapes are kept");
    }

    @Test
    void anIpv6HostIsConnectedToWithoutItsBrackets() {
        StreamUrl url = StreamUrl.parse("rondo://[::1]:8554/a.webm");
        assertEquals("::1", url.host());
        assertEquals("[::1]:8554", url.address());
    }

    @Test
    void aUrlIsWrittenSoThatItReadsBackToTheSameStream() {
        for (StreamUrl url : new StreamUrl[] {new StreamUrl("h", 9, "films/Caf\u00e9 [hd] 100%?#.webm"),
            new StreamUrl("::1", 8554, "a b/c~d_e-f.webm")}) {
            assertEquals(url, StreamUrl.parse(url.url()), url.url());
        }
        assertEquals("rondo://[::1]:1/a%20b/%C3%A9%3F.webm", new StreamUrl("::1", 1, "a b/\u00e9?.webm").url());
    }

    @Test
    void anythingElseIsRefusedSayingWhatAUrlLooksLike() {
        for (String bad : new String[] {"http://h:1/a", "rondo://h/a", "rondo://h:0/a", "rondo://h:1/", "rondo://h:1/a?x",
            "rondo://h:1/a#x", "not a url"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamUrl.parse(bad), bad);
            assertEquals("the URL must be rondo://HOST:PORT/NAME, was '" + bad + "'", e.getMessage());
        }
    }
}
