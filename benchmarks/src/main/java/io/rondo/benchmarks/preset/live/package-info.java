/** The live presets: papers/002 Section 5.2's timeshift (recordings beside a timeshifted viewer) and live capacity. */
package io.rondo.benchmarks.preset.live;
