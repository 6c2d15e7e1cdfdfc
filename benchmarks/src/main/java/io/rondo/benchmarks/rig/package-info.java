/**
 * What a bench run starts and measures: rondo serve and its library, nginx, the seeded file sets and
 * the generated clips, kept between runs in the work folder.
 */
package io.rondo.benchmarks.rig;
