/**
 * The composition root: {@link io.rondo.server.RondoServer} builds and starts a whole server (disks,
 * executors, round clock, generator, sender, and the HTTP, stream and admin servers) from one
 * {@link io.rondo.server.RondoContext}; {@code rondo serve} and the tests both start it so.
 */
package io.rondo.server;
