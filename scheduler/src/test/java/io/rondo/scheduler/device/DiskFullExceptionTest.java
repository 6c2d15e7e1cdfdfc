package io.rondo.scheduler.device;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A full disk is named as such, whichever reader met it: the system's text (ENOSPC, EDQUOT) gets
 * its own exception and a plain reason. No full disk can be made here without root, so the
 * mapping is tested on the messages the readers throw.
 */
class DiskFullExceptionTest {

    @Test
    void noSpaceLeftSaysTheDiskIsFull() {
        IOException system = new IOException(
            "pwrite /data/cam.mp4 at offset 4096, 8192 bytes: No space left on device");

        IOException mapped = DiskFullException.ifFull(system);

        DiskFullException full = assertInstanceOf(DiskFullException.class, mapped);
        assertEquals("pwrite /data/cam.mp4 at offset 4096, 8192 bytes: No space left on device (the disk is full)",
            full.getMessage());
        assertSame(system, full.getCause());
        assertSame(full, DiskFullException.ifFull(full), "named once");
    }

    @Test
    void aQuotaReachedSaysTheDiskIsFull() {
        IOException mapped = DiskFullException.ifFull(new IOException("fallocate /d/x: Disk quota exceeded"));

        assertEquals("fallocate /d/x: Disk quota exceeded (the disk is full)",
            assertInstanceOf(DiskFullException.class, mapped).getMessage());
    }

    @Test
    void otherErrorsPassUnchanged() {
        IOException dying = new IOException("pwrite /data/cam.mp4 at offset 0, 4096 bytes: Input/output error");

        assertSame(dying, DiskFullException.ifFull(dying));
        IOException silent = new IOException();
        assertSame(silent, DiskFullException.ifFull(silent));
    }
}
