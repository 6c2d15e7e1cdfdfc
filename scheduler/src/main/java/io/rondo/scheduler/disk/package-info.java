/** Disk models: the geometry and timing the scheduler estimates service times with. */
package io.rondo.scheduler.disk;
