package io.rondo.scheduler.admission;

/**
 * What the admitted streams take (papers/003 Section 2.2): {@code cycle}, the time-cycle
 * utilization u_t, the largest part of any disk's round for C-requests they fill (1: full), as
 * modelled and scaled by the rounds measured; {@code memory}, the memory utilization u_m, their
 * buffers' share of the buffer ceiling.
 */
public record Utilization(double cycle, double memory) {
}
