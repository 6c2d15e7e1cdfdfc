/**
 * The server's disk side at run time: one executor per disk with its scheduler, the round clock,
 * the buffer pool, and the generator that turns reads of objects into D-requests
 * (papers/001 Section 6(b)).
 *
 * <p>The thread roles, each an Agrona {@code Agent} on a thread of its own (docs/threads.md has
 * the whole table, with the shared state that is not a queue and the threads that are not agents):
 * <table>
 *   <caption>Rondo's thread roles</caption>
 *   <tr><th>thread</th><th>agent</th><th>owns</th><th>takes work through</th><th>may call</th></tr>
 *   <tr><td>rondo-http-*, rondo-stream-*</td><td>Netty event loops</td>
 *       <td>channels, stream sessions</td><td>Netty</td>
 *       <td>the generator's, executors' and sender's queues; admission; a stream's round plan</td></tr>
 *   <tr><td>rondo-generator</td><td>{@code Generator}</td><td>open files</td>
 *       <td>a queue of jobs</td><td>the file system (may block); executors' queues</td></tr>
 *   <tr><td>rondo-disk-NAME</td><td>{@link io.rondo.scheduler.exec.DiskExecutor}</td>
 *       <td>the disk's scheduler and device</td><td>D-request and round-start queues</td>
 *       <td>the device (one blocking read at a time); the buffer pool; completions</td></tr>
 *   <tr><td>rondo-round-clock</td><td>{@link io.rondo.scheduler.exec.RoundClock}</td><td>the round count</td>
 *       <td>nothing: its work is a time</td><td>streams' round plans; executors' round-start queues</td></tr>
 *   <tr><td>rondo-sender</td><td>{@code io.rondo.server.stream.StreamSender}</td>
 *       <td>waiting fragments, clients' rates</td><td>a command queue</td>
 *       <td>channels' writability; each fragment's transmit, which hops to its event loop</td></tr>
 * </table>
 */
package io.rondo.server.runtime;
