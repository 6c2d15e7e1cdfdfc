/** The stream protocol's frames and their binary codec (docs/stream-protocol.md), shared by client and server. */
package io.rondo.client.protocol;
