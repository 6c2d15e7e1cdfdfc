/**
 * The server's disk side at run time: one executor per disk with its scheduler, the round clock,
 * the buffer pool, and the generator that turns reads of objects into D-requests
 * (papers/001 Section 6(b)).
 */
package io.rondo.server.runtime;
