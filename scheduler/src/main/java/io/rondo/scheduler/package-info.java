/**
 * The per-disk round scheduler of papers/001 Sections 2-4: requests, the fifo queue and the scan
 * list, and {@link io.rondo.scheduler.DiskScheduler}, the state machine that both the disk
 * executor and the simulator drive.
 */
package io.rondo.scheduler;
