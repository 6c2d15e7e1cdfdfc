/** {@code rondo play}: the command, where the media it receives goes, and what it says about the stream. */
package io.rondo.server.cli.play;
