/** Stream combination and the adaptive time cycle (papers/003): a cycle's schedule and Figure 2's state machine. */
package io.rondo.scheduler.cycle;
