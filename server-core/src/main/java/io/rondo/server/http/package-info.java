/** HTTP for discrete data: RFC 9110 ranges and conditional requests, decided apart from any transport. */
package io.rondo.server.http;
