package io.rondo.server.cli;

import io.rondo.server.cli.admin.AdminCommand;
import io.rondo.server.cli.cluster.ClusterCommand;
import io.rondo.server.cli.play.PlayCommand;
import io.rondo.server.cli.record.RecordCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The {@code rondo} command line: one subcommand per thing a user does with Rondo. Every failure is
 * one line on standard error that starts with the command, {@code rondo ingest: ...}.
 */
@Command(name = "rondo",
    description = "Rondo: a mixed-workload multimedia information server.",
    mixinStandardHelpOptions = true,
    versionProvider = RondoCommand.Version.class,
    subcommands = {ServeCommand.class, PlayCommand.class, RecordCommand.class, IngestCommand.class, LsCommand.class,
        RmCommand.class, MvCommand.class, DemoCommand.class,
        SimulateCommand.class,
        LoadCommand.class, ProfileCommand.class, DoctorCommand.class, AdminCommand.class, BenchCommand.class,
        ClusterCommand.class,
        CommandLine.HelpCommand.class})
public final class RondoCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line with the given arguments and writers; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new RondoCommand());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((exception, arguments) -> {
            CommandLine line = exception.getCommandLine();
            String command = line.getCommandSpec().qualifiedName();
            line.getErr().println(command + ": " + exception.getMessage());
            line.getErr().println("Try '" + command + " --help' for what it takes.");
            return CommandLine.ExitCode.USAGE;
        });
        commandLine.setExecutionExceptionHandler((exception, line, parseResult) -> {
            String command = line.getCommandSpec().qualifiedName();
            if (exception instanceof IllegalArgumentException || exception instanceof java.io.UncheckedIOException) {
                line.getErr().println(command + ": " + exception.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            if (exception instanceof IllegalStateException || exception instanceof java.io.IOException) {
                line.getErr().println(command + ": " + exception.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            }
            throw exception;
        });
        return commandLine.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version from the jar's manifest, or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = RondoCommand.class.getPackage().getImplementationVersion();
            return new String[] {"rondo " + (version == null ? "(development build)" : version)};
        }
    }
}
