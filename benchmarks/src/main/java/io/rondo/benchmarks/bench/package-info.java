/** {@code rondo bench}: Rondo under load beside nginx in one run, its presets, results and charts. */
package io.rondo.benchmarks.bench;
