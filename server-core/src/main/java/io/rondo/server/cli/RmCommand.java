package io.rondo.server.cli;

import io.rondo.content.model.MediaObject;
import io.rondo.server.content.Library;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
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

    @Mixin
    private LibraryOptions libraryOptions;

    @Override
    public Integer call() throws IOException {
        try (Library library = libraryOptions.open()) {
            for (String name : names) {
                MediaObject removed = library.directory().delete(name);
                spec.commandLine().getOut().println("removed " + removed.name());
            }
        }
        return 0;
    }
}
