/** {@code rondo record}: the command, the media it reads and sends, the token it shows, and what it says. */
package io.rondo.server.cli.record;
