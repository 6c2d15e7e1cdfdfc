/**
 * Continuous data: the stream protocol's server side (docs/stream-protocol.md), admission, one
 * C-request per stream per round, and the paced sender (papers/001 Section 6, papers/000 Section
 * 2.2, papers/004 Section 3.2).
 */
package io.rondo.server.stream;
