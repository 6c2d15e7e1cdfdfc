/** The {@code rondo} command line (Picocli): the entry point and one class per subcommand. */
package io.rondo.server.cli;
