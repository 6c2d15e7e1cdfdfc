/** System tests: a real Rondo on loopback, real clients and sockets, emulated paper disks, faults. */
package io.rondo.systemtest;
