/** Admission control: a stream is admitted only if every disk's round, the buffers and the network still fit. */
package io.rondo.scheduler.admission;
