/** What every command of the command line shares on the terminal: progress bars, and progress lines off a TTY. */
package io.rondo.server.cli.console;
