/** A load client of the stream protocol: many players in one JVM over Netty, and what they saw. */
package io.rondo.benchmarks.load.stream;
