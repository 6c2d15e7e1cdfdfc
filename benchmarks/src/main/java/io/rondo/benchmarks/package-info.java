/** JMH benchmarks (scheduler overhead per round, simulator speed) and StreamLoad, a stream-protocol load client. */
package io.rondo.benchmarks;
