package io.rondo.content.media;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rondo.content.model.Fragment;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Writes a {@link StoredMedia} the way ingest does, checking that each part is as long as the index says. */
public final class StoredFiles {

    private StoredFiles() {
    }

    public static Path write(StoredMedia media, Path out) throws IOException {
        try (FileChannel channel = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            media.writeInit(channel);
            assertEquals(media.index().init().end(), channel.position(), "the init segment is as long as indexed");
            for (int i = 0; i < media.index().fragments().size(); i++) {
                media.writeFragment(i, channel);
                Fragment f = media.index().fragments().get(i);
                assertEquals(f.range().end(), channel.position(), "fragment " + i + " is as long as indexed: " + f);
            }
            assertEquals(media.size(), channel.size());
        }
        return out;
    }
}
