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
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rondo rm}: removes objects from the library, entry first, then their files. */
@Command(name = "rm", description = "Remove objects from the library (refused while one is being read).",
    mixinStandardHelpOptions = true)
final class RmCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "NAME", arity = "1..*", description = "The objects' names, e.g. /videos/clip.webm.")
    private List<String> names;

    @Option(names = "--data", paramLabel = "DIR", description = "The data folder; default: the configured roots.")
    private Path data;

    @Option(names = "--config", paramLabel = "FILE", description = "The configuration file.")
    private Path config;

    @Override
    public Integer call() throws IOException {
        try (Library library = Library.open(config, data)) {
            for (String name : names) {
                MediaObject removed = library.directory().delete(name);
                spec.commandLine().getOut().println("removed " + removed.name());
            }
        }
        return 0;
    }
}
