/**
 * A seeded simulation of object placement over 10 to 1,000 nodes (papers/004 Section 6, issue 25):
 * rendezvous hashing with replicas and admission-aware routing against HAProxy's own consistent
 * hashing, under Zipf popularity; the busiest node against the mean, streams refused while the
 * cluster has room, objects moved when a node joins or leaves.
 */
package io.rondo.server.cluster.sim;
