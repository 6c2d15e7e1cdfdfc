/** The discrete-event simulator of papers/001 Section 5: disks, workloads and the named experiments. */
package io.rondo.scheduler.sim;
