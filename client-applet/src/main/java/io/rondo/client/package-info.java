/** The Java client of Rondo's stream protocol: connect, open a stream, receive its fragments. */
package io.rondo.client;
