/**
 * Live media: recordings written in the disks' rounds as write streams beside the read streams
 * (papers/000 Sections 2.1-2.3, papers/002 Sections 2 and 4), each a catalog object from its first
 * round, its fragment index durable each round, closed cleanly at the next start after a crash,
 * and watched at the live edge from the recorder's memory or behind it from the disk.
 */
package io.rondo.server.live;
