/**
 * The block-device layer: reading and writing files with O_DIRECT from aligned buffers, reserving
 * a file's blocks ahead of its writes, their physical positions (FIEMAP) for SCAN, the device
 * behind a path; native (JNI) where it loads, pure Java where it does not.
 */
package io.rondo.scheduler.device;
