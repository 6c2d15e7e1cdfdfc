/**
 * rondo in a JVM of its own: the command line that starts it, {@code rondo serve} run as a child process, and how
 * such a child is stopped.
 */
package io.rondo.server.launch;
