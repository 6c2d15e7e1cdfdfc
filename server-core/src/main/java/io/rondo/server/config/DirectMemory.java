package io.rondo.server.config;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

/**
 * How much direct memory this JVM may allocate: the read buffers are direct, so their ceiling must
 * stay under it. {@code -XX:MaxDirectMemorySize} when set; else the JVM's default, which is the
 * maximum heap ({@link Runtime#maxMemory()}). The JDK's own figure ({@code jdk.internal.misc.VM})
 * is not exported, so the option is read through the HotSpot diagnostic bean.
 */
public final class DirectMemory {

    private static final String OPTION = "MaxDirectMemorySize";

    private DirectMemory() {
    }

    /** The most direct memory the JVM allows, in bytes. */
    public static long maxBytes() {
        return configuredBytes() > 0 ? configuredBytes() : Runtime.getRuntime().maxMemory();
    }

    /** Whether {@code -XX:MaxDirectMemorySize} sets it, rather than the heap's maximum. */
    public static boolean configured() {
        return configuredBytes() > 0;
    }

    /** {@code -XX:MaxDirectMemorySize}, or 0 where it is unset or cannot be read (a JVM other than HotSpot). */
    private static long configuredBytes() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotSpot == null ? 0 : Long.parseLong(hotSpot.getVMOption(OPTION).getValue());
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }
}
