/**
 * Running the scheduler for real: one executor thread per disk issuing one IO at a time, the
 * round clock, the devices they read (direct or emulated) and the pool of aligned buffers the
 * reads land in (papers/001 Section 6(b)-(c), papers/000 Section 2.1).
 */
package io.rondo.scheduler.exec;
