package io.rondo.benchmarks.cli;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;

/**
 * benchmarks.jar's entry: {@code bench ...} runs {@code rondo bench} (its presets); anything else
 * goes to JMH's own command line, so {@code java -jar benchmarks.jar ScheduleRound -f 1} works as
 * with any JMH jar.
 */
public final class Main {

    private Main() {
    }

    /**
     * @param args {@code bench} and its options, or JMH's
     */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("bench")) {
            // benchmarks.jar holds SLF4J's API with no binding, which would swallow Netty's warnings (a leak, say).
            InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
            String[] rest = new String[args.length - 1];
            System.arraycopy(args, 1, rest, 0, rest.length);
            System.exit(BenchCommand.execute(rest));
        }
        org.openjdk.jmh.Main.main(args);
    }
}
