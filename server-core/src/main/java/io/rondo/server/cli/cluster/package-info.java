/** {@code rondo cluster}: several Rondo nodes as one service, and the HAProxy in front of them. */
package io.rondo.server.cli.cluster;
