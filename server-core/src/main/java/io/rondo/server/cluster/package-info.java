/**
 * Several Rondo nodes as one service (papers/004 Section 6, docs/cluster.md): who the nodes are,
 * which of them hold an object, copies of objects between them, and what each knows of the others.
 * Nodes share nothing but names: each admits streams against its own disks; HAProxy in front
 * routes by the same placement the nodes compute.
 */
package io.rondo.server.cluster;
