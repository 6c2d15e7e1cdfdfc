package io.rondo.systemtest;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * A client that closes its stream as soon as it is accepted cancels the stream's first reads; a cancelled
 * read is not a disk's failure: hundreds of such clients leave the disks' IO error counts at 0.
 */
class OpenThenCloseTest {

    private static final int CLIENTS = 300;

    @TempDir
    Path temp;

    private static byte[] bytes(Frame frame) {
        ByteBuffer encoded = FrameCodec.encode(frame);
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }

    @Test
    void streamsClosedRightAfterTheirOpenCountNoIoError() throws Exception {
        try (RondoUnderTest rondo = RondoUnderTest.start(temp, 1000)) {
            List<RawStreamConnection> clients = new ArrayList<>();
            try {
                for (int i = 0; i < CLIENTS; i++) {
                    RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0);
                    clients.add(client);
                    client.send(bytes(RondoUnderTest.openClip()));
                    Frame answer = client.next();
                    assertInstanceOf(Accept.class, answer, "the stream is admitted, its first reads issued");
                    client.send(bytes(new Close()));
                }
                for (RawStreamConnection client : clients) {
                    while (client.next() != null) {
                        Thread.onSpinWait();
                    }
                }
            } finally {
                for (RawStreamConnection client : clients) {
                    client.close();
                }
            }
            rondo.awaitQuiet(Duration.ofSeconds(30));

            long ioErrors = rondo.disks.diskNames().stream().mapToLong(disk -> rondo.disks.executor(disk).ioErrors())
                .sum();
            assertEquals(0, ioErrors, "a read cancelled by its stream's end is no IO error");
        }
    }
}
