/**
 * Bringing objects in and keeping them: crash-safe ingest, placement over the disks, the directory
 * tree of names, and the demo library.
 */
package io.rondo.content.ingest;
