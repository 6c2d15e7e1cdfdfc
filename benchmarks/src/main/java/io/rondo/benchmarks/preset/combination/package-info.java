/**
 * {@code rondo bench combination}: stream combination on against off, on the emulated disk of
 * papers/001 (papers/003).
 */
package io.rondo.benchmarks.preset.combination;
