/** rondo in a JVM of its own: the command line that starts it, and {@code rondo serve} run as a child process. */
package io.rondo.server.launch;
