package io.rondo.scheduler.admission;

/**
 * What a change of the admission settings at run time found ({@link AdmissionController#reconfigure}):
 * new streams are judged under the new settings, and the streams already admitted stay admitted,
 * whether or not the new settings would have taken them all.
 *
 * @param admitted  the streams admitted when the settings changed
 * @param exceeding how many of them would have to end for the rest to fit the new settings: taken
 *                  in the order they were admitted, each charged under the new policy, those the
 *                  new settings would refuse. Until that many have ended, the resource they
 *                  overfill (a disk's round, the buffers or the network) refuses every new stream.
 */
public record Reconfiguration(int admitted, int exceeding) {
}
