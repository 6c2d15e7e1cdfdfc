/**
 * The client-buffers preset: papers/004 Figures 21-22, the streams a buffer ceiling admits with DblBuf, ClBuf
 * and ClBufRate.
 */
package io.rondo.benchmarks.preset.clientbuffers;
