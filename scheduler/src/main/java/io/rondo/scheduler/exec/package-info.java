/**
 * Running the scheduler for real: one executor thread per disk issuing one IO at a time, the
 * round clock, the devices they read (direct or emulated) and the pool of aligned buffers the
 * reads land in (papers/001 Section 6(b)-(c), papers/000 Section 2.1). A disk's policy, queue
 * lengths and the buffer ceiling can be read and changed from other threads while it runs.
 */
package io.rondo.scheduler.exec;
