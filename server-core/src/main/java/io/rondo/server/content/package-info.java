/** The content manager wired to Rondo's configuration: disks from the storage roots, the catalog, ingest. */
package io.rondo.server.content;
