/** Admission control: a new stream is admitted only if every disk's round, and buffer memory, still fit. */
package io.rondo.scheduler.admission;
