/** The simulator of papers/003 Section 3: stream combination against a fixed time cycle, IO by IO in virtual time. */
package io.rondo.scheduler.sim.cycle;
