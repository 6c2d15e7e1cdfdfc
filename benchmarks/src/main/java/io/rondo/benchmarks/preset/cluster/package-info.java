/**
 * {@code rondo bench cluster}: several Rondo nodes behind HAProxy (issue 25, papers/004 Section 6): scale-out
 * from one node to three, and a node killed under load.
 */
package io.rondo.benchmarks.preset.cluster;
