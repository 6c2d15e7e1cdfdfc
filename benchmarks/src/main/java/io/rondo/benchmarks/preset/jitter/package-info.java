/** papers/002 Figure 14 as a bench preset: paced stream reads with Rondo's guarantees beside nginx's best effort. */
package io.rondo.benchmarks.preset.jitter;
