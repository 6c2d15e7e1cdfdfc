/** The machine's clocks, read in one place: everything else in Rondo is handed the clock it reads. */
package io.rondo.scheduler.time;
