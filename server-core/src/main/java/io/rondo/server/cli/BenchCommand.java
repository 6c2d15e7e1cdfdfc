package io.rondo.server.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rondo bench} as {@code rondo --help} lists it. The load tests live in the benchmarks
 * module's own jar, which the {@code ./rondo} launcher runs for {@code rondo bench}; rondo.jar run
 * directly says where they are.
 */
@Command(name = "bench",
    description = {"Load-test Rondo beside nginx on this machine and write JSON, charts and a side-by-side summary "
        + "(presets: discrete-vs-nginx, table1, figure14).",
        "The ./rondo launcher runs it from benchmarks/target/benchmarks.jar: ./rondo bench --help."},
    mixinStandardHelpOptions = true)
final class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** The preset and its options, for benchmarks.jar. */
    @Unmatched
    private List<String> arguments;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": the load tests are in benchmarks.jar, not "
            + "rondo.jar: run ./rondo bench" + (arguments == null || arguments.isEmpty() ? ""
                : " " + String.join(" ", arguments)) + " from the source checkout (it builds the jar first)");
        return 2;
    }
}
