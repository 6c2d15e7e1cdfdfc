/** Reads paced as papers/002's rwrt paces them, each when its media is due, and the delays they record. */
package io.rondo.benchmarks.load.paced;
