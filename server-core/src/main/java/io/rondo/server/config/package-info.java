/** Rondo's settings: {@code config/rondo.yaml}, every knob with its default, read and checked once. */
package io.rondo.server.config;
