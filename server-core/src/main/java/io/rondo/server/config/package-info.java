/**
 * Rondo's settings: {@code config/rondo.yaml} read by {@code ConfigFile}, one {@code *Settings} record a section with
 * its knobs' defaults and checks, and {@code RondoConfig}, the whole with what follows from several sections.
 */
package io.rondo.server.config;
