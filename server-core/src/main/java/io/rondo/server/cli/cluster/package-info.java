/**
 * {@code rondo cluster}: the commands of several nodes as one service (docs/cluster.md): their
 * status, rebalancing after a node joins or leaves, and HAProxy's configuration in front of them.
 */
package io.rondo.server.cli.cluster;
