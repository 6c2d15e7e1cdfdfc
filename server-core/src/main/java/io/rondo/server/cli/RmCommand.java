package io.rondo.server.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rondo rm}: removes objects from the library, entry first, then their files. Beside a
 * running server that holds the library, the server removes them.
 */
@Command(name = "rm", description = {"Remove objects from the library (refused while one is being read).",
    "While rondo serve holds the library, the objects are removed through its admin API."},
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
        try (LibraryOptions.Opened opened = libraryOptions.openOrServer(libraryOptions.settings())) {
            for (String name : names) {
                String removed;
                if (opened.server() != null) {
                    opened.server().delete(name);
                    removed = name;
                } else {
                    removed = opened.library().directory().delete(name).name();
                }
                spec.commandLine().getOut().println("removed " + removed);
            }
        }
        return 0;
    }
}
