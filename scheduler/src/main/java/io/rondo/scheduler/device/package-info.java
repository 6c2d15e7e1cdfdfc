/**
 * The block-device layer: reading files with O_DIRECT into aligned buffers, their physical
 * positions (FIEMAP) for SCAN, the device behind a path; native (JNI) where it loads, pure Java
 * where it does not.
 */
package io.rondo.scheduler.device;
