/**
 * The per-disk round scheduler of papers/001 Sections 2-4: requests, the fifo queue and the scan
 * list, and {@link io.rondo.scheduler.DiskScheduler}, the state machine that both the disk
 * executor and the simulator drive, with the summary of each round it ends
 * ({@link io.rondo.scheduler.RoundSummary}: the slack per time cycle of papers/000 Figure 2).
 */
package io.rondo.scheduler;
