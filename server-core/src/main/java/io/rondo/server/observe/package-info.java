/**
 * What the running server tells about itself: each disk's rounds and D-responses
 * ({@link io.rondo.server.observe.DiskWatch}), admission decisions, the metrics Prometheus scrapes
 * and the events the admin port streams.
 */
package io.rondo.server.observe;
