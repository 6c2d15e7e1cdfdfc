/** A node's agent for HAProxy's agent check: its headroom from admission control, as one line on a port of its own. */
package io.rondo.server.cluster.agent;
