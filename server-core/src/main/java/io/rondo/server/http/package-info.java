/**
 * HTTP for discrete data: RFC 9110 ranges and conditional requests, decided apart from any
 * transport, and bodies read from the disks; and the door to the stream protocol's WebSocket binding.
 */
package io.rondo.server.http;
