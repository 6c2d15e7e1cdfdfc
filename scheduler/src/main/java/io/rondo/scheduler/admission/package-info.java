/**
 * Admission control: a stream is admitted only if every disk's round, the buffers and the network
 * still fit; the settings may change at run time, the round length excepted.
 */
package io.rondo.scheduler.admission;
