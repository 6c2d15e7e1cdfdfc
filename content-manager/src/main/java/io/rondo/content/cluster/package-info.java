/**
 * Placement over the nodes of a cluster (papers/004 Section 6): which nodes hold an object, by
 * rendezvous hashing of its name, the same rule HAProxy's Lua computes in front of them.
 */
package io.rondo.content.cluster;
