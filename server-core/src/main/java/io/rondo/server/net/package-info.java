/**
 * Netty's side of the ports: the transport (epoll where the machine has it, NIO otherwise) and the
 * connection limits every port holds its connections to.
 */
package io.rondo.server.net;
