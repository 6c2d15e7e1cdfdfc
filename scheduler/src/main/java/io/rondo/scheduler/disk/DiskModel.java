package io.rondo.scheduler.disk;

/**
 * What the scheduler needs to know of a disk to estimate service times (papers/001 Figure 6).
 *
 * <p>Positions are byte addresses on the device. A model turns them into whatever geometry it
 * has: the paper's disk maps them to cylinders and zones; a profile measured on a real device
 * may know only throughput against IO size (papers/000 Figure 3). Every estimate is an upper
 * bound the scheduler may rely on: the actual service of an IO should never exceed
 * {@code seekNs + worstCaseRotationNs + transferNs}.
 */
public interface DiskModel {

    /** Number of addressable bytes; positions are in {@code [0, capacityBytes())}. */
    long capacityBytes();

    /** Time to move the head from one position to another; 0 when they share a cylinder. */
    long seekNs(long fromPosition, long toPosition);

    /** The longest seek this disk can make: the full stroke. */
    long maxSeekNs();

    /** A full revolution: the rotational delay assumed when the actual one is unknown. */
    long worstCaseRotationNs();

    /** Time to transfer {@code sizeBytes} starting at {@code position}, by the zone it lies in. */
    long transferNs(long position, long sizeBytes);
}
