/** The live load: publishers sending a live encoder's output in real time, best-effort writers with a fsync. */
package io.rondo.benchmarks.load.live;
