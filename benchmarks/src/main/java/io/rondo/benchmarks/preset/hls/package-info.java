/** {@code rondo bench hls}: HLS sessions' part GETs from Rondo beside nginx serving the same byte ranges. */
package io.rondo.benchmarks.preset.hls;
