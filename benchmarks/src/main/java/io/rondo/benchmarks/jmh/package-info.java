/**
 * The JMH benchmarks: scheduler overhead per round (papers/001 Table 4), simulator speed, the disk
 * readers and the JNI call, catalog reopening, ingest's remux, and the closed-loop HTTP GET load.
 */
package io.rondo.benchmarks.jmh;
