/**
 * papers/000 Table 1 (admission accuracy) as a benchmark: MaxN found on the emulated paper disk
 * through Rondo's real executor, beside what each admission policy admits.
 */
package io.rondo.benchmarks.preset.accuracy;
