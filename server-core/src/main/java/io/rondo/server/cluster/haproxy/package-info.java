/**
 * HAProxy in front of a cluster of Rondo nodes: {@code rondo cluster haproxy-config}'s configuration, which sends
 * each request straight to a node that holds its object, and HAProxy run on it as a child process.
 */
package io.rondo.server.cluster.haproxy;
