package io.rondo.scheduler.device;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The line t(s) = a + s/R through measured IO times, and the writes' model where no line fits. */
class ServiceTimeFitTest {

    @Test
    void timesGrowingWithTheSizeGiveTheirAccessTimeAndRate() throws IOException {
        // 1 ms a read and 100 MB/s: 10 ns a byte
        List<ServiceTimeFit.Sample> reads = List.of(sample(4096, 1_000_000 + 40_960),
            sample(65_536, 1_000_000 + 655_360), sample(1 << 20, 1_000_000 + 10_485_760));
        DiskProfiler.Fit fit = ServiceTimeFit.fit(reads);
        assertEquals(1.0, fit.accessMs(), 1e-6);
        assertEquals(1e8, fit.transferBytesPerSecond(), 1);
    }

    /**
     * Writes that each wait for an fdatasync of about the same time, whatever their size (a device
     * with a write cache), fit no line: they are modelled at the reads' rate, with the access time
     * that covers the mean write of every size.
     */
    @Test
    void writesWhoseTimesDoNotGrowAreModelledAtTheReadsRate() {
        List<ServiceTimeFit.Sample> writes = List.of(sample(4096, 3_000_000), sample(65_536, 2_950_000),
            sample(1 << 20, 2_900_000));
        assertThrows(IOException.class, () -> ServiceTimeFit.fit(writes));
        DiskProfiler.Fit fit = ServiceTimeFit.fitAtRate(writes, 1e8);
        assertEquals(1e8, fit.transferBytesPerSecond(), 1);
        assertEquals(3.0 - 40_960 / 1e6, fit.accessMs(), 1e-6, "the smallest write's time less its transfer");
        assertEquals(3.0, fit.serviceMs(4096), 1e-6);
    }

    private static ServiceTimeFit.Sample sample(int size, long ns) {
        return new ServiceTimeFit.Sample(size, 2, new long[] {ns, ns});
    }
}
