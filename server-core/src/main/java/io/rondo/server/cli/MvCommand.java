package io.rondo.server.cli;

import io.rondo.content.model.MediaObject;
import io.rondo.server.content.Library;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code rondo mv}: renames an object; its bytes stay where they are. */
@Command(name = "mv", description = "Rename an object in the library.", mixinStandardHelpOptions = true)
final class MvCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FROM", description = "The object's name.")
    private String from;

    @Parameters(index = "1", paramLabel = "TO", description = "Its new name.")
    private String to;

    @Option(names = "--data", paramLabel = "DIR", description = "The data folder; default: the configured roots.")
    private Path data;

    @Option(names = "--config", paramLabel = "FILE", description = "The configuration file.")
    private Path config;

    @Override
    public Integer call() throws IOException {
        try (Library library = Library.open(config, data)) {
            MediaObject renamed = library.directory().rename(from, to);
            spec.commandLine().getOut().println("renamed " + from + " to " + renamed.name());
        }
        return 0;
    }
}
