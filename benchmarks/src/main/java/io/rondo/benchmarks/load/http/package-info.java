/** HTTP load clients: open and closed loops of GETs over Netty, and a blocking HTTP/1.1 connection. */
package io.rondo.benchmarks.load.http;
