/** {@code rondo admin}: a running server's admin API on the command line, as tables or as its JSON. */
package io.rondo.server.cli.admin;
