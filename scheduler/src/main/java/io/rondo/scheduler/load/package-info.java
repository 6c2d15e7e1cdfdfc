/**
 * Dummy streams (papers/000 Section 3): synthetic CBR or VBR read streams and a Poisson D-load run
 * through the real executors against a real or emulated disk, to measure what the simulator
 * predicts.
 */
package io.rondo.scheduler.load;
