/** JMH benchmarks: the scheduler's overhead per round (papers/001 Table 4) and the simulator's speed. */
package io.rondo.benchmarks;
