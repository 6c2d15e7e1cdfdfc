package io.rondo.server;

import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.file.Path;

/** What ingest stores for a clip (remuxed, one fragment a round): what HTTP and streams then carry. */
public final class StoredCopy {

    private StoredCopy() {
    }

    /** The stored copy of the clip {@code file}, for rounds of one second. */
    public static byte[] of(Path file) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (StoredMedia media = ((Preparation.Continuous) MediaIndexers.prepare(file, 1_000_000_000L)).media()) {
            media.writeAll(Channels.newChannel(out));
        }
        return out.toByteArray();
    }
}
