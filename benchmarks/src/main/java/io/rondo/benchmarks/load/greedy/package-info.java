/** Greedy downloaders: whole-file GETs in a loop, as fast as the server gives, in a process of their own. */
package io.rondo.benchmarks.load.greedy;
